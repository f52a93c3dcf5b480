"""Helpers both halves of the Python peer use (jose_peer.py, flow_peer.py)."""

import base64


def b64u(data: bytes) -> str:
    """Unpadded base64url, as JOSE writes it."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64u(text: str) -> bytes:
    """Decodes unpadded base64url."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
