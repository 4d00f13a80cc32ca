"""The Python client of the public gRPC API (used by the command line, the AI workers, tests):
`Client` connects and signs in, creates matches and hands out a `Seat` per seat to read, act
(with idempotency keys and retries), page legal actions and follow the event stream
(services/client/client.py); `reading` and `session` hold the pieces it is built from."""
from services.client.client import Action, Client, Seat, open_channel

__all__ = ["Action", "Client", "Seat", "open_channel"]
