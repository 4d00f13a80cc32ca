"""The web service: Archmage in the browser, a client of the public gRPC API like any other.

One module per job:

* `settings`: what it reads from the environment (where the platform is, its own port, the
  key that signs session cookies);
* `sessions`: the player's session, held in a signed cookie (the player's credential and the
  seat tokens of the matches they play), never on the server;
* `platform`: the calls to the platform, through the Python client (services/client), run off
  the event loop, with the platform's refusals turned into messages a person reads;
* `api`: the JSON routes (guest sign-in, games, start a match, my matches, act, resign);
* `queue`: queueing through matchmaking from the lobby (the player's own ticket, polled; the
  assigned seat kept in the session);
* `relay`: a match's WebSocket: the seat's view, its legal actions and the match's events (a
  visitor with no session, or no seat, watches as a spectator);
* `turns`: the lobby's WebSocket relaying the player's turn notices (WatchMyTurns);
* `rulehelp`: each action kind's rulebook section, as the game's engine names it;
* `replay`: a finished match's replay for anyone: its whole log, the spectator's view after each
  step as the game's engine rebuilds it, and the platform's verdict on its dice;
* `pages`: the HTML pages and the static files (plain JS modules, no build step);
* `metrics`: its Prometheus figures; `app` wires it all; `main` serves it on uvicorn.
"""
