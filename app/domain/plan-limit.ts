// docs/product.md, Plan limit: the dialog shown when a Free user has reached the persona limit.
export const LIMIT_DIALOG = {
  title: "Free Plan Limit Reached",
  text: "You've reached the maximum of 10 personas for the Free Plan. Upgrade to Premium for unlimited persona creation and additional features.",
  cancel: "Cancel",
  upgrade: "Upgrade to Premium",
  upgradeTo: "/subscription",
} as const;
