package kernel

import (
	"context"
	"fmt"
	"io"
)

// Engine runs cells; the kernel package knows nothing of CUDA.
//
// Offsets passed to and returned by Complete and Inspect are byte offsets into
// code; the kernel converts Jupyter's code-point cursor positions.
type Engine interface {
	// Execute runs one cell, publishing outputs through out; ctx is cancelled on interrupt.
	//
	// A returned error becomes an `error` message and an execute_reply with status
	// "error". If the error implements `interface{ ErrorName() string }` and/or
	// `interface{ Traceback() []string }` those give ename and traceback, else ename
	// is "Error" and the traceback is the message lines. An engine interrupted through
	// ctx should return ctx.Err(); the kernel reports it as KeyboardInterrupt.
	Execute(ctx context.Context, req ExecuteRequest, out Publisher) error
	// Complete returns completions for the text before byte offset cursor, replacing code[start:end].
	Complete(code string, cursor int) (matches []string, start, end int)
	// Inspect returns a MIME bundle documenting the word at byte offset cursor.
	Inspect(code string, cursor, detail int) (data map[string]any, found bool)
	// IsComplete reports "complete", "incomplete" (with indent), "invalid" or "unknown".
	IsComplete(code string) (status, indent string)
}

// ExecuteRequest is what the engine needs to know about one cell.
type ExecuteRequest struct {
	// Code is the cell's source.
	Code string
	// Silent asks for no published output at all.
	Silent bool
	// StoreHistory says whether the cell counts in the history and execution count.
	StoreHistory bool
	// ExecutionCount is the count this cell runs under.
	ExecutionCount int
}

// Publisher sends a cell's outputs to the frontends on iopub.
type Publisher interface {
	// Display publishes display_data; displayID, when not empty, goes in transient.display_id.
	Display(data, metadata map[string]any, displayID string) error
	// UpdateDisplay publishes update_display_data for an earlier Display with the same displayID.
	UpdateDisplay(data, metadata map[string]any, displayID string) error
	// Stream publishes text on the stream name ("stdout" or "stderr").
	Stream(name, text string) error
}

// HelpLink is one entry of kernel_info's help_links.
type HelpLink struct {
	// Text is the link's label.
	Text string `json:"text"`
	// URL is the link's target.
	URL string `json:"url"`
}

// Info describes the engine in kernel_info replies.
type Info struct {
	// Banner is shown by consoles at start.
	Banner string
	// HelpLinks are shown in the frontend's help menu.
	HelpLinks []HelpLink
	// Version is the implementation_version (and language version).
	Version string
}

// ErrorNamer is implemented by engine errors that carry a Jupyter ename.
type ErrorNamer interface {
	// ErrorName returns the ename of the error message.
	ErrorName() string
}

// Tracebacker is implemented by engine errors that carry their own traceback lines.
type Tracebacker interface {
	// Traceback returns the traceback lines of the error message.
	Traceback() []string
}

// StreamWriter returns an io.Writer that publishes each Write on stream name ("stdout" or "stderr").
func StreamWriter(p Publisher, name string) io.Writer {
	return streamWriter{p: p, name: name}
}

// streamWriter adapts a Publisher stream to io.Writer.
type streamWriter struct {
	p    Publisher
	name string
}

// Write publishes b as one stream message.
func (w streamWriter) Write(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	if err := w.p.Stream(w.name, string(b)); err != nil {
		return 0, fmt.Errorf("stream %s: %w", w.name, err)
	}
	return len(b), nil
}
