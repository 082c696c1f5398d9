"""/api/v1/: allauth headless's app client (config, sign up, log in, the session,
password reset) and the arena's own endpoints; the schema and its two readers."""

from allauth.headless.constants import Client
from allauth.headless.urls import build_urlpatterns
from django.urls import URLPattern, URLResolver, include, path, re_path
from drf_spectacular.views import SpectacularAPIView

from api.views import (
    actions,
    challenges,
    codex,
    daily,
    docs,
    duel,
    games,
    login,
    matches,
    me,
    password_reset,
    players,
    session,
    unknown,
)

app_name = "api"


def _headless_app_patterns() -> list[URLPattern | URLResolver]:
    """allauth's app-client routes (auth/login, auth/session, ...) without the `v1/`
    it puts them under: ours is the API's own version prefix."""
    (versioned,) = build_urlpatterns(Client.APP)
    if not isinstance(versioned, URLResolver):
        raise TypeError("allauth's headless routes changed shape")
    return list(versioned.url_patterns)


game = "games/<uuid:game_id>"
match = "matches/<uuid:match_id>"
challenge = "challenges/<int:challenge_id>"

# allauth routes its phone endpoints whatever the settings, and where no login has a
# phone (ACCOUNT_SIGNUP_FIELDS names none) its adapter raises on them, a 500: here they
# are the API's 404, and so not in the schema (api.schema drops what this view answers).
PHONE_PATHS = ("account/phone", "auth/phone/verify", "auth/phone/verify/resend")

urlpatterns = [
    *(path(p, unknown.UnknownPathView.as_view(), name="unknown_path") for p in PHONE_PATHS),
    path(
        "auth/password/reset",
        password_reset.ResetPasswordView.as_api_view(client=Client.APP),
        name="reset_password",
    ),
    path("auth/login", login.LoginView.as_api_view(client=Client.APP), name="login"),
    path("auth/session", session.SessionView.as_api_view(client=Client.APP), name="session"),
    path("", include((_headless_app_patterns(), "headless"), namespace="headless")),
    path("schema", SpectacularAPIView.as_view(), name="schema"),
    path("docs", docs.SwaggerUiView.as_view(), name="docs"),
    path("redoc", docs.RedocView.as_view(), name="redoc"),
    path("variants", games.VariantListView.as_view(), name="variants"),
    path("variants/<slug:variant>/active", games.ActiveGameView.as_view(), name="active_game"),
    path("games", games.GameCollectionView.as_view(), name="games"),
    path(game, games.GameDetailView.as_view(), name="game"),
    path(f"{game}/restart", games.RestartView.as_view(), name="restart"),
    path(f"{game}/moves", actions.MoveView.as_view(), name="move"),
    path(f"{game}/tap", actions.TapView.as_view(), name="tap"),
    path(f"{game}/undo", actions.UndoView.as_view(), name="undo"),
    path(f"{game}/hint", actions.HintView.as_view(), name="hint"),
    path(f"{game}/auto-complete", actions.AutoCompleteView.as_view(), name="auto_complete"),
    path(f"{game}/finish", actions.FinishView.as_view(), name="finish"),
    path(f"{game}/accept-loss", actions.AcceptLossView.as_view(), name="accept_loss"),
    path("me", me.MeView.as_view(), name="me"),
    path("me/settings", me.SettingsView.as_view(), name="me_settings"),
    path("daily", daily.DailyView.as_view(), name="daily"),
    path("daily/<slug:variant>/play", daily.DailyPlayView.as_view(), name="daily_play"),
    path(
        "daily/<str:day>/<slug:variant>/leaderboard",
        daily.DealLeaderboardView.as_view(),
        name="deal_leaderboard",
    ),
    path(
        "leaderboards/<slug:variant>",
        daily.PeriodLeaderboardView.as_view(),
        name="period_leaderboard",
    ),
    path("codex", codex.CodexView.as_view(), name="codex"),
    path("codex/<slug:key>/play", codex.ScenarioPlayView.as_view(), name="codex_play"),
    path(
        "codex/<slug:key>/leaderboard",
        codex.ScenarioLeaderboardView.as_view(),
        name="codex_leaderboard",
    ),
    path("challenges", challenges.ChallengeDayView.as_view(), name="challenges"),
    path("challenges/month", challenges.ChallengeMonthView.as_view(), name="challenges_month"),
    path(
        "challenges/leaderboard",
        challenges.ChallengeLeaderboardView.as_view(),
        name="challenges_leaderboard",
    ),
    path(f"{challenge}/play", challenges.ChallengePlayView.as_view(), name="challenges_play"),
    path(f"{challenge}/proof", challenges.ChallengeProofView.as_view(), name="challenges_proof"),
    path("players/<str:username>", players.PlayerView.as_view(), name="player"),
    path(
        "players/<str:username>/matches",
        matches.PlayerMatchesView.as_view(),
        name="player_matches",
    ),
    path("matches", matches.MatchCollectionView.as_view(), name="matches"),
    path("matches/modes", matches.MatchModeListView.as_view(), name="match_modes"),
    path("matches/queue/<slug:mode>", matches.QueueView.as_view(), name="match_queue"),
    path("matches/ratings/<slug:mode>", matches.RatingsView.as_view(), name="match_ratings"),
    path(match, matches.MatchDetailView.as_view(), name="match"),
    path(f"{match}/join", matches.MatchJoinView.as_view(), name="match_join"),
    path(f"{match}/duel", duel.DuelBoardView.as_view(), name="duel"),
    path(f"{match}/duel/moves", duel.DuelMoveView.as_view(), name="duel_move"),
    path(f"{match}/leave", matches.MatchLeaveView.as_view(), name="match_leave"),
    path(f"{match}/start", matches.MatchStartView.as_view(), name="match_start"),
    path(f"{match}/rematch", matches.MatchRematchView.as_view(), name="match_rematch"),
]

# Last: any other path under /api/v1/ is the API's own 404 (api/views/unknown.py).
urlpatterns.append(re_path(r"", unknown.UnknownPathView.as_view(), name="unknown_path"))
