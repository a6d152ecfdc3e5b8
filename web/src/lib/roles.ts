const LABELS: Record<string, string> = { OWNER: 'Owner', ADMIN: 'Admin', AGENT: 'Agent' };

/** The app's one name for a role ('Owner' for OWNER); a role it does not know is shown as it is. */
export const roleLabel = (role: string): string => LABELS[role] ?? role;
