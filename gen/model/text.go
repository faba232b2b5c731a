package model

import "strings"

// JoinDoc joins two paragraphs of a doc text; either may be empty.
func JoinDoc(doc, more string) string {
	if doc == "" {
		return more
	}
	if more == "" {
		return doc
	}
	return doc + "\n\n" + more
}

// MediaKind classifies a media type: "json", "form", "multipart", "text" or
// "binary".
func MediaKind(mt string) string {
	m := strings.ToLower(strings.TrimSpace(mt))
	if i := strings.IndexByte(m, ';'); i >= 0 {
		m = strings.TrimSpace(m[:i])
	}
	switch {
	case m == "application/json" || strings.HasSuffix(m, "+json") || m == "text/json" || m == "*/*" || m == "application/*":
		return "json"
	case m == "application/x-www-form-urlencoded":
		return "form"
	case m == "multipart/form-data" || strings.HasPrefix(m, "multipart/"):
		return "multipart"
	case strings.HasPrefix(m, "text/"):
		return "text"
	}
	return "binary"
}

// StreamKind is how a response body of media type mt is read as a stream of
// values: MediaSSE (text/event-stream), MediaNDJSON (one JSON value per
// line: application/x-ndjson, application/jsonl and their kin); MediaNone
// when mt is not a stream.
func StreamKind(mt string) Media {
	m := strings.ToLower(strings.TrimSpace(mt))
	if i := strings.IndexByte(m, ';'); i >= 0 {
		m = strings.TrimSpace(m[:i])
	}
	switch m {
	case "text/event-stream":
		return MediaSSE
	case "application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonl",
		"application/jsonlines", "application/x-jsonlines", "application/json-lines":
		return MediaNDJSON
	}
	return MediaNone
}

// ValidTagName reports whether encoding/json can carry name in a struct tag.
func ValidTagName(name string) bool {
	if name == "" {
		return false
	}
	for _, c := range name {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case c == ',' || c == '"' || c == '\\' || c == '`' || c == '\'':
			return false
		case !IsLetterOrDigit(c):
			return false
		}
	}
	return true
}
