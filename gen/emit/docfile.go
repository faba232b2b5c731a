package emit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"unicode/utf8"

	"github.com/opentoolgen/opentoolgen/gen/model"
)

// document.gen.go embeds the equivalent document as a string constant. The
// file is emitted and formatted with a placeholder for the literal, and the
// document is then written into the formatted file once: a document of 50 MB
// is not rendered, parsed and printed again (a copy each), and when it is
// large and can be a raw literal it is marshalled straight into the file.
// Generate makes Result.Document from the same JSON. gofmt leaves a string
// literal as it is, so the bytes are those formatting the whole file would
// give (the golden files say so).

// docPlaceholder stands for the literal until the file is formatted. It is a
// line of code of its own, which no comment line can be.
const docPlaceholder = "`opentoolgen:document`"

var docPlaceholderLine = []byte("\nconst documentJSON = " + docPlaceholder + "\n")

// DocumentOut is what the emitter of document.gen.go shares with Generate.
type DocumentOut struct {
	SizeHint int // the expected size of the compact document (the input's)
	// Compact is the compact JSON of the document, once document.gen.go is
	// rendered; for a large document, a part of that file's content.
	Compact []byte
}

// documentOutput is the output of document.gen.go.
func documentOutput(p *model.Package, out *DocumentOut) Output {
	return Output{Name: "document.gen.go", File: &documentFile{p: p, out: out}}
}

// documentFile renders document.gen.go with the placeholder (Render), then
// writes the document into the formatted file (Splice).
type documentFile struct {
	p   *model.Package
	out *DocumentOut // shared with Generate
}

func (d *documentFile) Render(w io.Writer) error { return emitDocument(d.p).Render(w) }

// Splice returns the formatted file src with the document in place of the
// placeholder.
func (d *documentFile) Splice(src []byte) ([]byte, error) {
	i := bytes.Index(src, docPlaceholderLine)
	if i < 0 {
		return nil, fmt.Errorf("the placeholder of the document is missing")
	}
	start := i + len(docPlaceholderLine) - len(docPlaceholder) - 1
	prefix, suffix := src[:start], src[start+len(docPlaceholder):]
	out := d.out
	if out == nil {
		out = &DocumentOut{}
		d.out = out
	}
	// Marshal the compact document straight after prefix and a backquote.
	var b bytes.Buffer
	b.Grow(len(prefix) + 1 + out.SizeHint + out.SizeHint/8 + 4096 + len(suffix))
	b.Write(prefix)
	b.WriteByte('`')
	jsonStart := b.Len()
	if err := encodeDocValue(&b, reflect.ValueOf(d.p.Document)); err != nil {
		return nil, err
	}
	compact := b.Bytes()[jsonStart:b.Len():b.Len()]
	out.Compact = compact
	// Indented to be read and diffed; compact when large (it is data).
	doc := compact
	if IndentedSize(compact) <= maxIndentedDocument {
		doc = indentJSON(compact)
	} else if rawLiteralOK(compact) {
		b.WriteByte('`')
		b.Write(suffix)
		return b.Bytes(), nil
	}
	// Indented, or a literal that cannot be raw: a file of its own.
	f := make([]byte, 0, len(prefix)+quotedLen(doc)+len(suffix))
	f = append(f, prefix...)
	f = appendStringLiteral(f, doc)
	return append(f, suffix...), nil
}

// Splicer is a file whose formatted content gets a last step.
type Splicer interface {
	Splice(formatted []byte) ([]byte, error)
}

// rawLiteralOK reports whether s can be written as a raw string literal (it
// reads and diffs better).
func rawLiteralOK(s []byte) bool {
	return utf8.Valid(s) && !bytes.ContainsAny(s, "`\r\x00\ufeff")
}

// appendStringLiteral appends s as a Go string literal: raw when it can be
// one, else interpreted, as strconv.Quote writes it (in pieces, to not copy
// a large s).
func appendStringLiteral(dst, s []byte) []byte {
	if rawLiteralOK(s) {
		dst = append(dst, '`')
		dst = append(dst, s...)
		return append(dst, '`')
	}
	dst = append(dst, '"')
	var q []byte
	for len(s) > 0 {
		n := quotePiece(s)
		q = strconv.AppendQuote(q[:0], string(s[:n]))
		dst = append(dst, q[1:len(q)-1]...)
		s = s[n:]
	}
	return append(dst, '"')
}

// quotePiece is the length of the next piece of s to quote: at most 64 KiB,
// ending where a rune starts (strconv.Quote works rune by rune).
func quotePiece(s []byte) int {
	const piece = 64 << 10
	if len(s) <= piece {
		return len(s)
	}
	n := piece
	for k := 0; k < utf8.UTFMax && !utf8.RuneStart(s[n]); k++ {
		n--
	}
	return n
}

// quotedLen is the length of appendStringLiteral(nil, s), near enough to
// size a buffer.
func quotedLen(s []byte) int {
	if rawLiteralOK(s) {
		return len(s) + 2
	}
	return len(s) + len(s)/8 + 16
}

// jsonPiece is the size of the pieces a large string is encoded in.
const jsonPiece = 64 << 10

// encodeJSONString appends s as json.Marshal encodes a string, in pieces
// (encoding/json escapes rune by rune): a large description is not encoded
// into a buffer of its own first.
func encodeJSONString(b *bytes.Buffer, s string) error {
	b.WriteByte('"')
	for len(s) > 0 {
		n := len(s)
		if n > jsonPiece {
			n = jsonPiece
			for k := 0; k < utf8.UTFMax && !utf8.RuneStart(s[n]); k++ {
				n--
			}
		}
		q, err := json.Marshal(s[:n])
		if err != nil {
			return err
		}
		b.Write(q[1 : len(q)-1])
		s = s[n:]
	}
	b.WriteByte('"')
	return nil
}
