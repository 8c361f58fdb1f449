"""The sans-IO protocol peer: messages in, messages out, time passed in."""
