package runtime

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/url"
	"sync/atomic"

	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// The answer of GET /load.
//
// The reference clients cannot read a $ref: their OpenTool.fromJson resolves
// each one the moment it meets it, in a registry that only their file loader
// fills, so their load() fails with "#ref not found: #/schemas/X" on any
// document that has one. The reference servers serve /load with every $ref
// inlined (and "schemas" kept), and so does this server: a plain GET /load
// answers the document with every $ref that is not part of a cycle replaced by
// the schema it refers to. A recursive schema cannot be written without a $ref,
// so the references that close a cycle stay (the reference clients cannot read
// those in any form).
//
// GET /load?refs=keep answers the document as the tool has it, references and
// all: [Client.Load] asks for that, so that a Go client gets the named schemas
// back; servers that do not know the parameter ignore it.

// loadAnswers keeps the answers of GET /load for the document the tool gave last.
//
// Tool.Load may return a different document at any time, so the answers are
// keyed by the document: by its pointer first, which costs nothing, then by its
// encoding, for tools that return a fresh copy each time. The pointer is sound
// as a key because the server already encodes the document it is given while
// other requests may be encoding it too, so a tool must not change a document
// after returning it; and the kept pointer keeps the document alive, so its
// address cannot come back as another document's.
type loadAnswers struct {
	last atomic.Pointer[loadAnswer]
}

type loadAnswer struct {
	doc     *document.OpenTool
	raw     []byte // the document as the tool has it
	inlined []byte // the document with its references inlined
}

// get returns the answers for doc, computing them unless doc is the document of
// the last answer, or encodes to the same bytes.
func (a *loadAnswers) get(doc *document.OpenTool, logger *slog.Logger) (*loadAnswer, error) {
	last := a.last.Load()
	if last != nil && last.doc == doc {
		return last, nil
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	if last != nil && bytes.Equal(last.raw, raw) {
		ans := &loadAnswer{doc: doc, raw: last.raw, inlined: last.inlined}
		a.last.Store(ans)
		return ans, nil
	}
	ans := &loadAnswer{doc: doc, raw: raw, inlined: raw}
	if in, ok := document.Inline(doc); !ok {
		logger.Warn("opentool: GET /load answers the document with its $refs: inlining them would make it too large", "title", doc.Info.Title)
	} else if ans.inlined, err = json.Marshal(in); err != nil {
		return nil, err
	}
	a.last.Store(ans)
	return ans, nil
}

// body returns the answer a request with the query rawQuery gets.
func (ans *loadAnswer) body(rawQuery string) []byte {
	if rawQuery != "" {
		if q, err := url.ParseQuery(rawQuery); err == nil && q.Get("refs") == "keep" {
			return ans.raw
		}
	}
	return ans.inlined
}
