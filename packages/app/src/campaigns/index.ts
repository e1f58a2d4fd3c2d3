// Campaigns: filled in by the campaigns feature (issue 14).
export {};
