// Package kernel serves an Engine as a Jupyter kernel speaking messaging protocol 5.3
// over ZeroMQ (github.com/go-zeromq/zmq4). It is the only package that knows Jupyter.
//
// Sockets: shell, control and stdin are ROUTERs, iopub a PUB, heartbeat a REP that
// echoes. Every message is HMAC-SHA256 verified in constant time by Decode (an empty key
// disables signing); a message that fails to decode or verify is logged and dropped.
//
// Shell requests are queued and served one at a time by a dispatcher; a cell runs in
// its own goroutine with a context that interrupt_request (on control) and SIGINT
// cancel. Control and heartbeat are served by their own goroutines, so they answer
// while a cell runs. Every request is wrapped in busy/idle status messages on iopub.
// Cells failing with stop_on_error abort the execute_requests that were already
// received when the failure was answered.
//
// zmq4 trusts its peers' ZMTP framing (a frame header claiming 2^46 bytes is a fatal
// out-of-memory, a truncated READY an index panic), so every listener is wrapped in a
// guard (guard.go) that checks each byte a peer sends before zmq4 reads it: greeting,
// READY metadata, peer socket type, and frame and message sizes (DefaultLimits); a
// violating connection is logged and closed. zmq4 accepts connections one at a time,
// so a peer that connects and stays silent delays the next one by up to
// Limits.Handshake (5 s).
//
// History is kept in memory for the life of the process; comms are not supported
// (comm_info is empty and comm_open is answered with comm_close).
package kernel
