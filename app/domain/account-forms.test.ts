import { parseWithZod, getZodConstraint } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";

import { ACCOUNT_MESSAGES, changePasswordRules, profileRules } from "./account";
import { changePasswordSchema, deleteAccountSchema, notificationsSchema, profileSchema } from "./account-forms";
import { validateValues } from "./form-rules";

const form = (entries: [string, string][]) => {
  const data = new FormData();
  for (const [key, value] of entries) data.append(key, value);
  return data;
};

describe("settings schemas", () => {
  it("profile: first name optional, last name required, both 2 to 60 characters, messages of the account rules", () => {
    const ok = parseWithZod(
      form([
        ["firstName", ""],
        ["lastName", "  Lovelace "],
      ]),
      { schema: profileSchema },
    );
    expect(ok.status === "success" && ok.value).toEqual({ firstName: "", lastName: "Lovelace" });

    const refused = parseWithZod(
      form([
        ["firstName", "A"],
        ["lastName", ""],
      ]),
      { schema: profileSchema },
    );
    expect(refused.reply().error).toEqual({
      firstName: [ACCOUNT_MESSAGES.firstNameMin],
      lastName: [ACCOUNT_MESSAGES.lastNameMin],
    });
    const long = parseWithZod(
      form([
        ["firstName", "Ada\u0007"],
        ["lastName", "x".repeat(61)],
      ]),
      { schema: profileSchema },
    );
    expect(long.reply().error).toEqual({
      firstName: [ACCOUNT_MESSAGES.nameCharacters],
      lastName: [ACCOUNT_MESSAGES.lastNameMax],
    });
  });

  it("says what the rules the account service runs say, field by field", () => {
    const values = { firstName: "B", lastName: "\u0000" };
    const viaRules = validateValues(profileRules, values).errors;
    const viaSchema = parseWithZod(form(Object.entries(values)), { schema: profileSchema }).reply().error;
    expect(viaSchema).toEqual(viaRules);
    const passwords = { currentPassword: "", newPassword: "short" };
    expect(parseWithZod(form(Object.entries(passwords)), { schema: changePasswordSchema }).reply().error).toEqual(
      validateValues(changePasswordRules, passwords).errors,
    );
  });

  it("change password: current required, new one follows the password rules, nothing is sent back", () => {
    const refused = parseWithZod(form([["newPassword", "abcdefgh"]]), { schema: changePasswordSchema });
    expect(refused.reply().error).toEqual({
      currentPassword: [ACCOUNT_MESSAGES.currentPasswordRequired],
      newPassword: [ACCOUNT_MESSAGES.passwordRules],
    });
    expect(refused.reply({ hideFields: ["currentPassword", "newPassword"] }).initialValue).toEqual({});
    const ok = parseWithZod(
      form([
        ["currentPassword", "old"],
        ["newPassword", "Str0ng!pass"],
      ]),
      { schema: changePasswordSchema },
    );
    expect(ok.status).toBe("success");
  });

  it("delete account: the creator's e-mail (case aside) and, with a password, the current password", () => {
    const withPassword = deleteAccountSchema("Ada@Example.com", true);
    expect(
      parseWithZod(
        form([
          ["confirmEmail", " ada@example.COM "],
          ["password", "x"],
        ]),
        { schema: withPassword },
      ).status,
    ).toBe("success");
    expect(parseWithZod(form([["confirmEmail", "eve@example.com"]]), { schema: withPassword }).reply().error).toEqual({
      confirmEmail: [ACCOUNT_MESSAGES.confirmEmailMismatch],
      password: [ACCOUNT_MESSAGES.currentPasswordRequired],
    });
    const withoutPassword = deleteAccountSchema("ada@example.com", false);
    expect(parseWithZod(form([["confirmEmail", "ada@example.com"]]), { schema: withoutPassword }).status).toBe("success");
  });

  it("notifications: a ticked switch is on, a missing one off", () => {
    const result = parseWithZod(form([["imageGeneration", "on"]]), { schema: notificationsSchema });
    expect(result.status === "success" && result.value).toEqual({
      personaCreation: false,
      narrativeGeneration: false,
      imageGeneration: true,
      marketingEmails: false,
    });
  });

  it("gives conform constraints without failing on the rule-checked fields", () => {
    expect(getZodConstraint(profileSchema)).toBeTypeOf("object");
    expect(getZodConstraint(deleteAccountSchema("a@b.co", false))).toBeTypeOf("object");
  });
});
