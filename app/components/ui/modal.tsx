// A modal dialog on the native <dialog> element (opened with showModal()): focus stays
// inside, Escape closes it, focus returns to what opened it, and a click on the backdrop
// (which lands on the dialog element itself) closes it too.
export function Modal({
  dialogRef,
  titleId,
  textId,
  children,
  ...rest
}: {
  dialogRef: React.RefObject<HTMLDialogElement>;
  titleId: string;
  textId: string;
  children: React.ReactNode;
  "data-testid"?: string;
}) {
  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      aria-describedby={textId}
      onClick={(event) => {
        if (event.target === event.currentTarget) dialogRef.current?.close();
      }}
      className="w-[calc(100%-2rem)] max-w-md rounded-2xl bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/50"
      {...rest}
    >
      {children}
    </dialog>
  );
}
