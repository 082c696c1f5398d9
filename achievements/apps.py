from django.apps import AppConfig


class AchievementsConfig(AppConfig):
    name = "achievements"
    verbose_name = "Achievements"
