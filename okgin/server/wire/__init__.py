"""The socket: a table of message types to handlers, messages in, frames out, limits."""
