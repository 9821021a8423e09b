"""Vision mode (the paper's harness): the model sees screenshots and names a point on them."""

from webfovea.observation.modes.base import ObservationMode

MODE = ObservationMode(
    name="vision",
    summary="screenshots; targets are points on the image (the paper's harness)",
    image=True,
    snapshot=False,
    refs=False,
    points=True,
    intro="You see screenshots of a browser page at a fixed size",
)
