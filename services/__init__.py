"""The Archmage services: one folder per gRPC service (dice, board, combat,
matchmaking), the AI workers (ai), the command line (cli), client helpers
for the public API (client), the domain they share
(core: match store, match driver, errors, configuration) and the gRPC runtime."""
