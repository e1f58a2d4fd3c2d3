// Legacy-compatible ingress (issue 14).
export {};
