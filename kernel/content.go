package kernel

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// requiredFields are the content fields a request of msgType must carry (the
// protocol's mandatory ones that this kernel reads); without one it gets an error reply.
func requiredFields(msgType string) []string {
	switch msgType {
	case "execute_request", "is_complete_request":
		return []string{"code"}
	case "complete_request", "inspect_request":
		return []string{"code", "cursor_pos"}
	case "history_request":
		return []string{"hist_access_type"}
	case "comm_open":
		return []string{"comm_id", "target_name"}
	}
	return nil
}

// BadContentError is a request whose content lacks a field or has one of the wrong type.
type BadContentError struct {
	// MsgType is the request's type.
	MsgType string
	// Field is the offending field ("" when the content as a whole is bad).
	Field string
	// Problem says what is wrong with it.
	Problem string
}

// Error names the request, the field and the problem.
func (e *BadContentError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("%s: %s", e.MsgType, e.Problem)
	}
	return fmt.Sprintf("%s: field %q %s", e.MsgType, e.Field, e.Problem)
}

// decodeContent decodes m's content into v, checking the required fields of m's type
// are present (and not null) and every field has the type v gives it.
func decodeContent(m *Message, v any) error {
	t := m.Header.MsgType
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(m.Content, &fields); err != nil {
		return &BadContentError{MsgType: t, Problem: "content is not a JSON object: " + err.Error()}
	}
	for _, k := range requiredFields(t) {
		raw, ok := fields[k]
		if !ok {
			return &BadContentError{MsgType: t, Field: k, Problem: "is missing"}
		}
		if string(raw) == "null" {
			return &BadContentError{MsgType: t, Field: k, Problem: "is null"}
		}
	}
	if err := json.Unmarshal(m.Content, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return &BadContentError{MsgType: t, Field: te.Field, Problem: fmt.Sprintf("is a JSON %s, want %s", te.Value, jsonKind(te.Type))}
		}
		return &BadContentError{MsgType: t, Problem: err.Error()}
	}
	return nil
}

// jsonKind names the JSON type a Go type decodes from.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return strings.ToLower(t.Kind().String())
}
