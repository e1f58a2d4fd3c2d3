// Journeys and compat mappings management (issue 14).
export {};
