"""The players service's gRPC handlers: sign-up, sign-in, guests, refresh, sign-out, ratings.

It runs beside matchmaking (in the same process in split mode too): matchmaking is the
only other service that acts for players, ratings feed it directly, and sign-in is
rare, so a process of its own would add an address to configure and nothing else.
Other services never call it: they check credentials with the public key alone.
"""
from __future__ import annotations

from archmage.players.v1 import players_pb2

from services.core.errors import BadRequest, NotFound
from services.players.accounts import Accounts
from services.players.credentials import Credentials, Player
from services.players.ratings import Rating, Ratings
from services.rpc.edge import current_bearer
from services.rpc.quotas import peer_of
from shared.engine.registry import game_names

SERVICE = players_pb2.DESCRIPTOR.services_by_name["Players"]
MAX_LEADERS = 100


def rating_pb(r: Rating) -> players_pb2.Rating:
    return players_pb2.Rating(player_id=r.player_id, game=r.game, mu=r.mu, sigma=r.sigma, rating=r.rating,
                              matches=r.matches)


def need_game(game: str) -> str:
    if game not in game_names():
        raise BadRequest(f"unknown game; this platform hosts {', '.join(game_names())}")
    return game


class PlayersHandlers:
    def __init__(self, accounts: Accounts, credentials: Credentials, ratings: Ratings, quotas=None):
        self.accounts, self.credentials, self.ratings, self.quotas = accounts, credentials, ratings, quotas

    async def _count(self, name: str, key: str) -> None:
        if self.quotas is not None:
            await self.quotas.hit(name, key)

    def _signed_in(self, player: Player) -> players_pb2.SignedIn:
        issued = self.credentials.issue(player)
        return players_pb2.SignedIn(player_id=player.player_id, token=issued.token, expires_at=issued.expires_at,
                                    guest=player.guest)

    async def SignUp(self, request, context):
        await self._count("guests_per_peer", peer_of(context))  # a new player, like a guest
        return self._signed_in(await self.accounts.sign_up(request.name, request.password))

    async def SignIn(self, request, context):
        await self._count("signins_per_peer", peer_of(context))
        await self._count("signins_per_name", request.name)
        return self._signed_in(await self.accounts.sign_in(request.name, request.password))

    async def SignInAsGuest(self, request, context):
        await self._count("guests_per_peer", peer_of(context))
        return self._signed_in(await self.accounts.guest())

    async def Refresh(self, request, context):
        player = await self.credentials.require(current_bearer())
        if not await self.accounts.exists(player.player_id):
            raise NotFound("that player no longer exists: sign in again")
        await self.accounts.touch(player)
        return self._signed_in(player)

    async def SignOut(self, request, context):
        session = await self.credentials.session(current_bearer())
        await self.credentials.revoke(session)
        return players_pb2.SignedOut(player_id=session.player.player_id, revoked_until=session.expires_at)

    async def GetRating(self, request, context):
        player_id = request.player_id or (await self.credentials.require(current_bearer())).player_id
        return rating_pb(await self.ratings.get(need_game(request.game), player_id))

    async def ListLeaders(self, request, context):
        if request.limit > MAX_LEADERS:
            raise BadRequest(f"limit is at most {MAX_LEADERS}")
        leaders = await self.ratings.leaders(need_game(request.game), request.limit or 10)
        return players_pb2.Leaders(ratings=[rating_pb(r) for r in leaders])
