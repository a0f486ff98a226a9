"""Where phones find the server: the machine's LAN address, the join URL, and its QR code."""

from __future__ import annotations

import io
import socket

import segno


def lan_address() -> str:
    """The address other machines on the local network reach this one at.

    Connecting a UDP socket picks the outgoing interface without sending a packet; a private
    address is the target so that no route to the internet is needed. Falls back to the host
    name's address, then to 127.0.0.1 (a machine with no network at all).
    """
    for target in ("10.255.255.255", "192.168.255.255", "172.31.255.255"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
                probe.connect((target, 1))
                address = probe.getsockname()[0]
            if address and not address.startswith("0."):
                return address
        except OSError:
            continue
    try:
        address = socket.gethostbyname(socket.gethostname())
        if address:
            return address
    except OSError:
        pass
    return "127.0.0.1"


def base_url(host: str, port: int) -> str:
    """``http://host:port`` (the port left out when it is 80)."""
    return f"http://{host}" if port == 80 else f"http://{host}:{port}"


def qr_svg(data: str, *, scale: int = 8) -> bytes:
    """``data`` as an SVG QR code (error correction M, a quiet zone of 4 modules)."""
    out = io.BytesIO()
    segno.make(data, error="m", micro=False).save(out, kind="svg", scale=scale, border=4, xmldecl=False)
    return out.getvalue()
