"""LAN discovery (zeroconf) and transport. Not built yet."""
