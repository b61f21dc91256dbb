// The on-site SDK arrives with the "On-site SDK and host messaging" issue.
export {};
