"""`okgin bot`: okgin's own computer players on a server, through its HTTP bot API (docs/api.md).

``http`` speaks to the server (urllib), ``observe`` turns a streamed state into the seat's
``SeatView``, ``bot`` accepts challenges and plays the games."""
