"""Draw the app's home-screen icons (dutch_app/web/static/icon-*.png) with Pillow.

Run by hand when the icon changes: .venv/bin/python scripts/make_icons.py
"""

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

STATIC = Path(__file__).resolve().parents[1] / "dutch_app" / "web" / "static"
CLOTH, CARD, INK, RED = "#1B7A46", "#FBFAF6", "#1E2A23", "#C8102E"
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def icon(size: int) -> Image.Image:
    """A card on the green cloth, its corner a red D: readable at 48 px and at 512 px."""
    image = Image.new("RGB", (size, size), CLOTH)
    draw = ImageDraw.Draw(image)
    unit = size / 16
    card = (4.2 * unit, 2.6 * unit, 11.8 * unit, 13.4 * unit)
    line = max(1, size // 96)
    draw.rounded_rectangle(card, radius=1.1 * unit, fill=CARD, outline=INK, width=line)
    font = ImageFont.truetype(FONT, int(6.4 * unit))
    draw.text((8 * unit, 8 * unit), "D", font=font, fill=RED, anchor="mm")
    return image


if __name__ == "__main__":
    for size in (192, 512):
        icon(size).save(STATIC / f"icon-{size}.png", optimize=True)
