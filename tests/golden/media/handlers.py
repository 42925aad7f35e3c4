"""Media: commands that answer with an image, a sound, an embedded resource, or text mixed with
them."""

from __future__ import annotations

from typing import Literal

from burgee import Audio, EmbeddedResource, Image, command, program

program(name="media", version="1.0.0")

#: A one-pixel PNG, red or blue.
PIXELS = {
    "red": bytes.fromhex(
        "89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de"
        "0000000c49444154789c63f8cfc0000003010100c9fe92ef0000000049454e44ae426082"
    ),
    "blue": bytes.fromhex(
        "89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de"
        "0000000c49444154789c636060f80f00010301000889c2ec0000000049454e44ae426082"
    ),
}


@command(effects="read_only")
def pixel(color: Literal["red", "blue"] = "red") -> Image:
    """One pixel as a PNG image.

    Args:
        color: Its color.
    """
    return Image(PIXELS[color], "image/png")


@command(effects="read_only")
def tone(samples: int = 8) -> Audio:
    """A few samples of silence as WAV audio.

    Args:
        samples: How many 8-bit samples.
    """
    header = b"RIFF" + (36 + samples).to_bytes(4, "little") + b"WAVEfmt "
    fmt = (16).to_bytes(4, "little") + bytes.fromhex("01000100401f0000401f000001000800")
    data = b"data" + samples.to_bytes(4, "little") + b"\x80" * samples
    return Audio(header + fmt + data, "audio/wav")


@command(effects="read_only", cardinality="bounded")
def sheet(colors: list[Literal["red", "blue"]]) -> list[Image | str]:
    """A contact sheet: each color's name, then its pixel.

    Args:
        colors: The colors, in order.
    """
    shown: list[Image | str] = []
    for color in colors:
        shown += [color, Image(PIXELS[color], "image/png")]
    return shown


@command(effects="read_only")
def palette() -> EmbeddedResource:
    """The colors as a JSON document, embedded as a resource."""
    return EmbeddedResource(
        "media://palette.json", text='{"colors": ["red", "blue"]}', mime_type="application/json"
    )
