from django.apps import AppConfig


class HealthConfig(AppConfig):
    name = "health"
    verbose_name = "Health (readiness, warm cluster workers)"

    def ready(self):
        from django_q.signals import post_spawn

        from .workers import on_worker_spawn

        # Sent in each new django-q2 worker process before it reads its first task.
        post_spawn.connect(on_worker_spawn, dispatch_uid="health.on_worker_spawn")
