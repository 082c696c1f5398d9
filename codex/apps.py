from django.apps import AppConfig


class CodexConfig(AppConfig):
    name = "codex"
    verbose_name = "The Citadel Layout Codex"
