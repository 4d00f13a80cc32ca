"""What every gRPC service of the platform is built with, below the services themselves:
error mapping, interceptors and the caller's claim (`edge`), field caps (`caps`), limits
(`quotas`), TLS (`tls`), the one path of an action (`acting`) and the reply messages shared
by several services (`replies`). The service packages (dice, board, combat, matchmaking,
players) import it; `services.runtime` assembles them; nothing here imports either."""
