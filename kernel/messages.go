package kernel

// Typed contents of the messages this kernel receives and sends.

// LanguageInfo is kernel_info_reply's language_info.
type LanguageInfo struct {
	// Name is the language name, "cuda".
	Name string `json:"name"`
	// Version is the language version.
	Version string `json:"version"`
	// Mimetype is the MIME type of a cell's source.
	Mimetype string `json:"mimetype"`
	// FileExtension is the extension of exported scripts.
	FileExtension string `json:"file_extension"`
	// PygmentsLexer names the lexer nbconvert uses.
	PygmentsLexer string `json:"pygments_lexer"`
	// CodemirrorMode names the editor mode.
	CodemirrorMode string `json:"codemirror_mode"`
}

// KernelInfoReply is the content of kernel_info_reply.
type KernelInfoReply struct {
	// Status is "ok".
	Status string `json:"status"`
	// ProtocolVersion is "5.3".
	ProtocolVersion string `json:"protocol_version"`
	// Implementation is "kernelscope".
	Implementation string `json:"implementation"`
	// ImplementationVersion is the engine's version.
	ImplementationVersion string `json:"implementation_version"`
	// LanguageInfo describes the cell language.
	LanguageInfo LanguageInfo `json:"language_info"`
	// Banner is the console banner.
	Banner string `json:"banner"`
	// HelpLinks are the help menu entries.
	HelpLinks []HelpLink `json:"help_links"`
	// Debugger is false: no debug protocol.
	Debugger bool `json:"debugger"`
}

// ExecuteRequestContent is the content of execute_request.
type ExecuteRequestContent struct {
	// Code is the cell source.
	Code string `json:"code"`
	// Silent suppresses all output and history.
	Silent bool `json:"silent"`
	// StoreHistory defaults to true; forced false when Silent.
	StoreHistory *bool `json:"store_history"`
	// UserExpressions are answered with an empty map.
	UserExpressions map[string]any `json:"user_expressions"`
	// AllowStdin is ignored: this kernel never asks for input.
	AllowStdin bool `json:"allow_stdin"`
	// StopOnError defaults to true: abort queued executions after an error.
	StopOnError *bool `json:"stop_on_error"`
}

// ExecuteReply is the content of execute_reply.
type ExecuteReply struct {
	// Status is "ok", "error" or "aborted".
	Status string `json:"status"`
	// ExecutionCount is always present.
	ExecutionCount int `json:"execution_count"`
	// UserExpressions is always empty.
	UserExpressions map[string]any `json:"user_expressions"`
	// Payload is always empty.
	Payload []any `json:"payload"`
	// Ename is the error name when Status is "error".
	Ename string `json:"ename,omitempty"`
	// Evalue is the error value when Status is "error".
	Evalue string `json:"evalue,omitempty"`
	// Traceback is the error traceback when Status is "error".
	Traceback []string `json:"traceback,omitempty"`
}

// ErrorContent is the content of the iopub error message.
type ErrorContent struct {
	// Ename is the error's name.
	Ename string `json:"ename"`
	// Evalue is the error's message.
	Evalue string `json:"evalue"`
	// Traceback is the lines shown to the user.
	Traceback []string `json:"traceback"`
}

// ExecuteInput is the content of execute_input.
type ExecuteInput struct {
	// Code is the cell source.
	Code string `json:"code"`
	// ExecutionCount is the cell's count.
	ExecutionCount int `json:"execution_count"`
}

// Transient holds display_data's transient fields.
type Transient struct {
	// DisplayID names an updatable display.
	DisplayID string `json:"display_id,omitempty"`
}

// DisplayData is the content of display_data and update_display_data.
type DisplayData struct {
	// Data is the MIME bundle.
	Data map[string]any `json:"data"`
	// Metadata is per-MIME metadata.
	Metadata map[string]any `json:"metadata"`
	// Transient is not stored in notebooks.
	Transient Transient `json:"transient"`
}

// StreamContent is the content of stream.
type StreamContent struct {
	// Name is "stdout" or "stderr".
	Name string `json:"name"`
	// Text is the streamed text.
	Text string `json:"text"`
}

// StatusContent is the content of status.
type StatusContent struct {
	// ExecutionState is "starting", "busy" or "idle".
	ExecutionState string `json:"execution_state"`
}

// CompleteRequest is the content of complete_request.
type CompleteRequest struct {
	// Code is the cell source.
	Code string `json:"code"`
	// CursorPos is in Unicode code points.
	CursorPos int `json:"cursor_pos"`
}

// CompleteReply is the content of complete_reply.
type CompleteReply struct {
	// Status is "ok".
	Status string `json:"status"`
	// Matches are the candidate replacements.
	Matches []string `json:"matches"`
	// CursorStart is the first replaced code point.
	CursorStart int `json:"cursor_start"`
	// CursorEnd is one past the last replaced code point.
	CursorEnd int `json:"cursor_end"`
	// Metadata is empty.
	Metadata map[string]any `json:"metadata"`
}

// InspectRequest is the content of inspect_request.
type InspectRequest struct {
	// Code is the cell source.
	Code string `json:"code"`
	// CursorPos is in Unicode code points.
	CursorPos int `json:"cursor_pos"`
	// DetailLevel is 0 or 1.
	DetailLevel int `json:"detail_level"`
}

// InspectReply is the content of inspect_reply.
type InspectReply struct {
	// Status is "ok".
	Status string `json:"status"`
	// Found says whether Data holds anything.
	Found bool `json:"found"`
	// Data is the documentation bundle.
	Data map[string]any `json:"data"`
	// Metadata is empty.
	Metadata map[string]any `json:"metadata"`
}

// IsCompleteRequest is the content of is_complete_request.
type IsCompleteRequest struct {
	// Code is the cell source.
	Code string `json:"code"`
}

// IsCompleteReply is the content of is_complete_reply.
type IsCompleteReply struct {
	// Status is "complete", "incomplete", "invalid" or "unknown".
	Status string `json:"status"`
	// Indent is set when Status is "incomplete".
	Indent *string `json:"indent,omitempty"`
}

// HistoryRequest is the content of history_request.
type HistoryRequest struct {
	// Output asks for (input, output) pairs.
	Output bool `json:"output"`
	// Raw asks for raw input (inputs are always raw here).
	Raw bool `json:"raw"`
	// HistAccessType is "tail", "range" or "search".
	HistAccessType string `json:"hist_access_type"`
	// Session selects the session for range; 0 or 1 is this process.
	Session int `json:"session"`
	// Start is the first line for range.
	Start int `json:"start"`
	// Stop is one past the last line for range; absent means to the end.
	Stop *int `json:"stop"`
	// N is the number of entries for tail and search.
	N *int `json:"n"`
	// Pattern is the glob for search.
	Pattern string `json:"pattern"`
	// Unique drops repeated inputs in search.
	Unique bool `json:"unique"`
}

// HistoryReply is the content of history_reply.
type HistoryReply struct {
	// Status is "ok".
	Status string `json:"status"`
	// History holds [session, line, input] (or [session, line, [input, output]]) triples.
	History [][3]any `json:"history"`
}

// CommInfoReply is the content of comm_info_reply.
type CommInfoReply struct {
	// Status is "ok".
	Status string `json:"status"`
	// Comms is always empty.
	Comms map[string]any `json:"comms"`
}

// CommOpen is the content of comm_open.
type CommOpen struct {
	// CommID identifies the comm.
	CommID string `json:"comm_id"`
	// TargetName is the requested target.
	TargetName string `json:"target_name"`
}

// CommClose is the content of comm_close.
type CommClose struct {
	// CommID identifies the comm.
	CommID string `json:"comm_id"`
	// Data is empty.
	Data map[string]any `json:"data"`
}

// ShutdownContent is the content of shutdown_request and shutdown_reply.
type ShutdownContent struct {
	// Status is "ok" in replies.
	Status string `json:"status,omitempty"`
	// Restart says whether the client will restart the kernel.
	Restart bool `json:"restart"`
}

// StatusReply is a reply with only a status (interrupt_reply, aborted replies).
type StatusReply struct {
	// Status is "ok", "error" or "aborted".
	Status string `json:"status"`
}
