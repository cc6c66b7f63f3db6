"""Placeholder, replaced below."""


def draw_batch_schedule(instance, schedule, ax):
    pass
