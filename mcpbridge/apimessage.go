package mcpbridge

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/opentoolgen/opentoolgen/runtime"
)

// The text of an API's error.
//
// A REST call that fails with an HTTP error status reaches the bridge as
// runtime.ToolError makes it: code the status, message "HTTP 404 Not
// Found", data the API's body (its credentials redacted). A model reads the
// text content of the error result, not its _meta: that text carries the
// API's own message after the status, "HTTP 404 Not Found: non existing id",
// picked from the body's common shapes, the first present of
//
//	error.message, message, error (a string), error_description,
//	detail, title (RFC 9457 problem details), errors[0].message,
//	errors[0].detail, errors[0] (a string)
//
// or for a body that is text (not JSON, not markup), the text itself;
// whitespace runs become one space, and the whole is at most
// maxAPIMessageBytes (cut at a character, "…" added). The _meta error
// object keeps the message and data as they were.

// maxAPIMessageBytes bounds the API's message in an error result's text.
const maxAPIMessageBytes = 300

// errorText is the text of the error result of e: its message, followed by
// the API's own message when e is a REST API's error (see above).
func errorText(e *runtime.Error, msg string) string {
	if m := apiMessage(e); m != "" {
		return msg + ": " + m
	}
	return msg
}

// apiMessage returns the API's message in the body of e, a REST API's error
// as runtime.ToolError makes it; "" when e is not one or its body has none.
func apiMessage(e *runtime.Error) string {
	if e.Code < 400 || e.Code > 599 || len(e.Data) == 0 {
		return ""
	}
	status := "HTTP " + strconv.Itoa(e.Code)
	if e.Message != status && e.Message != status+" "+http.StatusText(e.Code) {
		return ""
	}
	var body any
	if json.Unmarshal(e.Data, &body) != nil {
		return ""
	}
	var m string
	switch b := body.(type) {
	case string: // a body that is not JSON
		if t := strings.TrimSpace(b); !strings.HasPrefix(t, "<") {
			m = t
		}
	case map[string]any:
		m = fromShapes(b)
	}
	return bound(m)
}

// fromShapes picks the message of a JSON error body.
func fromShapes(b map[string]any) string {
	if o, ok := b["error"].(map[string]any); ok {
		if s := str(o["message"]); s != "" {
			return s
		}
	}
	for _, k := range []string{"message", "error", "error_description", "detail", "title"} {
		if s := str(b[k]); s != "" {
			return s
		}
	}
	if errs, ok := b["errors"].([]any); ok && len(errs) > 0 {
		switch first := errs[0].(type) {
		case string:
			return first
		case map[string]any:
			for _, k := range []string{"message", "detail", "title"} {
				if s := str(first[k]); s != "" {
					return s
				}
			}
		}
	}
	return ""
}

func str(v any) string {
	s, _ := v.(string)
	return strings.TrimSpace(s)
}

// bound collapses the whitespace of s and cuts it to maxAPIMessageBytes.
func bound(s string) string {
	s = strings.Join(strings.Fields(strings.ToValidUTF8(s, "\uFFFD")), " ")
	if len(s) <= maxAPIMessageBytes {
		return s
	}
	cut := maxAPIMessageBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strings.TrimRight(s[:cut], " ") + "…"
}
