package kernel

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"
)

// Delimiter separates the routing identities from the signed message parts.
const Delimiter = "<IDS|MSG>"

// ProtocolVersion is the Jupyter messaging protocol version this kernel speaks.
const ProtocolVersion = "5.3"

// WireError is a decoding error kind; its values are constants, test them with errors.Is.
type WireError string

// Error returns the error's text.
func (e WireError) Error() string { return string(e) }

// Errors returned by Decode.
const (
	// ErrNoDelimiter means the multipart message has no <IDS|MSG> frame.
	ErrNoDelimiter = WireError("no <IDS|MSG> delimiter")
	// ErrTruncated means fewer than the five frames after the delimiter.
	ErrTruncated = WireError("truncated message")
	// ErrBadSignature means the HMAC does not match the message.
	ErrBadSignature = WireError("bad signature")
	// ErrMalformed means a JSON part is not a valid object or the header lacks fields.
	ErrMalformed = WireError("malformed message")
	// ErrBadContent means a correctly signed message with a good header has a malformed
	// parent_header, metadata or content; Decode returns the message too, so that its
	// sender can be answered with an error reply.
	ErrBadContent = WireError("malformed content")
)

// maxIdentities bounds the routing prefix accepted before the delimiter.
const maxIdentities = 64

// Header is a Jupyter message header (also used for parent_header).
type Header struct {
	// MsgID is unique per message.
	MsgID string `json:"msg_id"`
	// Session identifies the sender's session.
	Session string `json:"session"`
	// Username is the sender's user name.
	Username string `json:"username"`
	// Date is an ISO 8601 timestamp.
	Date string `json:"date"`
	// MsgType is the message type, e.g. "execute_request".
	MsgType string `json:"msg_type"`
	// Version is the protocol version of the message.
	Version string `json:"version"`
}

// Message is one decoded Jupyter message.
type Message struct {
	// Identities are the routing frames before the delimiter (ROUTER identity, or iopub topic).
	Identities [][]byte
	// Header is the message's own header.
	Header Header
	// Parent is the parent header; its zero value is sent as {}.
	Parent Header
	// Metadata is the message's metadata dictionary.
	Metadata map[string]any
	// Content is the message content, a JSON object.
	Content json.RawMessage
	// Buffers are the raw binary frames after content.
	Buffers [][]byte

	// badContent is set by the read loop when Decode found the content malformed.
	badContent error
}

// Signer signs and verifies messages with HMAC-SHA256; an empty key disables signing.
type Signer struct {
	key []byte
}

// NewSigner returns a Signer for scheme ("hmac-sha256" or empty when key is empty) and key.
func NewSigner(scheme, key string) (Signer, error) {
	if key != "" && scheme != "hmac-sha256" {
		return Signer{}, fmt.Errorf("signature scheme %q: only hmac-sha256 is supported", scheme)
	}
	return Signer{key: []byte(key)}, nil
}

// Enabled reports whether messages are signed.
func (s Signer) Enabled() bool { return len(s.key) > 0 }

// Sign returns the hex HMAC of the four signed parts, or "" when signing is disabled.
func (s Signer) Sign(header, parent, metadata, content []byte) []byte {
	if !s.Enabled() {
		return nil
	}
	m := hmac.New(sha256.New, s.key)
	m.Write(header)
	m.Write(parent)
	m.Write(metadata)
	m.Write(content)
	sum := m.Sum(nil)
	out := make([]byte, hex.EncodedLen(len(sum)))
	hex.Encode(out, sum)
	return out
}

// Verify reports whether sig is the signature of the four parts, in constant time.
func (s Signer) Verify(sig, header, parent, metadata, content []byte) bool {
	if !s.Enabled() {
		return true
	}
	want := s.Sign(header, parent, metadata, content)
	return hmac.Equal(want, bytes.ToLower(sig))
}

// NewHeader returns a fresh header of msgType for session.
func NewHeader(msgType, session, msgID string, now time.Time) Header {
	return Header{
		MsgID:    msgID,
		Session:  session,
		Username: "kernel",
		Date:     now.UTC().Format("2006-01-02T15:04:05.000000Z"),
		MsgType:  msgType,
		Version:  ProtocolVersion,
	}
}

// Decode parses a multipart message, verifying its signature; it never panics on bad input.
// When the signature and header are good but the parent header, metadata or content is
// malformed, it returns the message (with empty parent, metadata and content "{}") and
// an error wrapping ErrBadContent, so that the request can get an error reply.
func Decode(frames [][]byte, s Signer) (*Message, error) {
	delim := -1
	for i, f := range frames {
		if i > maxIdentities {
			break
		}
		if string(f) == Delimiter {
			delim = i
			break
		}
	}
	if delim < 0 {
		return nil, fmt.Errorf("decode %d frames: %w", len(frames), ErrNoDelimiter)
	}
	parts := frames[delim+1:]
	if len(parts) < 5 {
		return nil, fmt.Errorf("decode: %d frames after delimiter, want at least 5: %w", len(parts), ErrTruncated)
	}
	sig, hdr, par, meta, content := parts[0], parts[1], parts[2], parts[3], parts[4]
	if !s.Verify(sig, hdr, par, meta, content) {
		return nil, fmt.Errorf("decode: %w", ErrBadSignature)
	}
	m := &Message{}
	for _, id := range frames[:delim] {
		m.Identities = append(m.Identities, bytes.Clone(id))
	}
	if err := decodeObject(hdr, &m.Header); err != nil {
		return nil, fmt.Errorf("decode header: %w", err)
	}
	if m.Header.MsgType == "" {
		return nil, fmt.Errorf("decode header: no msg_type: %w", ErrMalformed)
	}
	bad := func(part string, err error) (*Message, error) {
		m.Parent, m.Metadata, m.Content, m.Buffers = Header{}, nil, []byte("{}"), nil
		return m, fmt.Errorf("decode %s of %s: %w (%w)", part, m.Header.MsgType, ErrBadContent, err)
	}
	if err := decodeObject(par, &m.Parent); err != nil {
		return bad("parent_header", err)
	}
	if err := decodeObject(meta, &m.Metadata); err != nil {
		return bad("metadata", err)
	}
	if !isObject(content) {
		return bad("content", fmt.Errorf("not a JSON object: %w", ErrMalformed))
	}
	m.Content = bytes.Clone(content)
	for _, b := range parts[5:] {
		m.Buffers = append(m.Buffers, bytes.Clone(b))
	}
	return m, nil
}

// isObject reports whether b is one valid JSON object.
func isObject(b []byte) bool {
	t := bytes.TrimLeft(b, " \t\r\n")
	return len(t) > 0 && t[0] == '{' && json.Valid(b)
}

// decodeObject unmarshals the JSON object b into v; a non-object is ErrMalformed.
func decodeObject(b []byte, v any) error {
	if !isObject(b) {
		return fmt.Errorf("not a JSON object: %w", ErrMalformed)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	return nil
}

// Encode serialises and signs m into multipart frames.
func Encode(m *Message, s Signer) ([][]byte, error) {
	hdr, err := json.Marshal(m.Header)
	if err != nil {
		return nil, fmt.Errorf("encode header: %w", err)
	}
	par := []byte("{}")
	if m.Parent != (Header{}) {
		if par, err = json.Marshal(m.Parent); err != nil {
			return nil, fmt.Errorf("encode parent_header: %w", err)
		}
	}
	meta := []byte("{}")
	if len(m.Metadata) > 0 {
		if meta, err = json.Marshal(m.Metadata); err != nil {
			return nil, fmt.Errorf("encode metadata: %w", err)
		}
	}
	content := []byte(m.Content)
	if len(content) == 0 {
		content = []byte("{}")
	} else if !isObject(content) {
		return nil, fmt.Errorf("encode content: not a JSON object: %w", ErrMalformed)
	}
	frames := make([][]byte, 0, len(m.Identities)+6+len(m.Buffers))
	frames = append(frames, m.Identities...)
	frames = append(frames, []byte(Delimiter), s.Sign(hdr, par, meta, content), hdr, par, meta, content)
	frames = append(frames, m.Buffers...)
	return frames, nil
}
