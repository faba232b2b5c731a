package emit

import (
	"html"
	"strings"
)

// HTML in descriptions. Documents written for a web page carry HTML in their
// descriptions (<p>, <a href=…>, <code>, &amp;…); a Go doc comment is plain
// text, so doc comments get the text HTML would show: a link is its text
// and its address in parentheses (go doc links the address), a paragraph,
// heading or list item starts a paragraph or a "- " line, a line break a
// line, any other element of HTML only its content, and entities are
// decoded. A "<" that does not open an element of HTML ("<id>", "a < b") is
// text. The embedded document keeps the description as it is.

// htmlText returns text with its HTML made plain text.
func htmlText(text string) string {
	if !strings.Contains(text, "<") {
		if strings.Contains(text, "&") {
			return html.UnescapeString(text)
		}
		return text
	}
	var b strings.Builder
	b.Grow(len(text))
	var href string // the address of the link being read
	linkStart := -1 // where the text of that link starts in b
	plain := 0      // text[plain:i] is not yet written
	flush := func(i int) {
		b.WriteString(html.UnescapeString(text[plain:i]))
	}
	for i := 0; i < len(text); {
		j := strings.IndexByte(text[i:], '<')
		if j < 0 {
			break
		}
		i += j
		if strings.HasPrefix(text[i:], "<!--") {
			end := strings.Index(text[i+4:], "-->")
			if end < 0 {
				break
			}
			flush(i)
			i += 4 + end + 3
			plain = i
			continue
		}
		name, closing, attrs, n := htmlTag(text[i:])
		if n == 0 {
			i++
			continue
		}
		flush(i)
		i += n
		plain = i
		if !closing && (name == "script" || name == "style") {
			// not text: left out up to its end
			end := strings.Index(strings.ToLower(text[i:]), "</"+name)
			if end < 0 {
				end = len(text) - i
			}
			i += end
			plain = i
			continue
		}
		switch name {
		case "a":
			if !closing {
				href, linkStart = htmlAttr(attrs, "href"), b.Len()
			} else if linkStart >= 0 {
				if t := strings.TrimSpace(b.String()[linkStart:]); href != "" && t != href && !strings.HasPrefix(href, "#") && !strings.HasPrefix(strings.ToLower(href), "javascript:") {
					b.WriteString(" (" + href + ")")
				}
				href, linkStart = "", -1
			}
		case "br":
			b.WriteString("\n")
		case "li":
			if !closing {
				b.WriteString("\n  - ")
			}
		case "td", "th":
			// a space between cells, none at the start of a line (which
			// would make it a code block)
			if str := b.String(); str != "" && !strings.HasSuffix(str, "\n") && !strings.HasSuffix(str, " ") {
				b.WriteString(" ")
			}
		default:
			if htmlBlocks[name] {
				b.WriteString("\n\n")
			}
		}
	}
	flush(len(text))
	return b.String()
}

// htmlTag reads the tag s starts with: the element's name in lower case,
// whether it closes it, its attributes and the tag's length; n is 0 when s
// does not start with a tag of an element of HTML.
func htmlTag(s string) (name string, closing bool, attrs string, n int) {
	i := 1
	if i < len(s) && s[i] == '/' {
		closing = true
		i++
	}
	start := i
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || i > start && s[i] >= '0' && s[i] <= '9') {
		i++
	}
	name = strings.ToLower(s[start:i])
	if !htmlElements[name] || i == len(s) || !(s[i] == '>' || s[i] == '/' || s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		return "", false, "", 0
	}
	// the attributes, up to the '>' outside quotes (within 2 KiB)
	var quote byte
	for j := i; j < len(s) && j < i+2048; j++ {
		switch c := s[j]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '<':
			return "", false, "", 0
		case c == '>':
			return name, closing, s[i:j], j + 1
		}
	}
	return "", false, "", 0
}

// htmlAttr returns the value of the attribute key of a tag's attributes,
// entities decoded, "" when it has none.
func htmlAttr(attrs, key string) string {
	for s := attrs; s != ""; {
		s = strings.TrimLeft(s, " \t\r\n/")
		k := s
		if i := strings.IndexAny(s, "= \t\r\n"); i >= 0 {
			k = s[:i]
		}
		s = strings.TrimLeft(s[len(k):], " \t\r\n")
		var v string
		if strings.HasPrefix(s, "=") {
			s = strings.TrimLeft(s[1:], " \t\r\n")
			if s != "" && (s[0] == '"' || s[0] == '\'') {
				end := strings.IndexByte(s[1:], s[0])
				if end < 0 {
					end = len(s) - 1
				}
				v, s = s[1:1+end], s[min(len(s), 2+end):]
			} else {
				end := strings.IndexAny(s, " \t\r\n")
				if end < 0 {
					end = len(s)
				}
				v, s = s[:end], s[end:]
			}
		}
		if strings.EqualFold(k, key) {
			return strings.TrimSpace(html.UnescapeString(v))
		}
		if k == "" {
			break
		}
	}
	return ""
}

// htmlBlocks are the elements that start and end a paragraph.
var htmlBlocks = map[string]bool{
	"p": true, "div": true, "ul": true, "ol": true, "dl": true, "dt": true, "dd": true, "table": true, "tr": true,
	"thead": true, "tbody": true, "tfoot": true, "h1": true, "h2": true, "h3": true, "h4": true, "h5": true,
	"h6": true, "pre": true, "blockquote": true, "section": true, "article": true, "header": true, "footer": true,
	"hr": true, "details": true, "summary": true, "figure": true, "aside": true, "nav": true, "main": true,
}

// htmlElements are the elements of HTML whose tags are read as tags.
var htmlElements = func() map[string]bool {
	m := map[string]bool{}
	for _, e := range strings.Fields(`a abbr b bdi bdo big br caption center cite code col colgroup del dfn
		em font i img ins kbd mark q s samp small span strike strong sub sup tt u var wbr li td th
		caption label input button form select option textarea iframe script style noscript svg
		picture source video audio`) {
		m[e] = true
	}
	for e := range htmlBlocks {
		m[e] = true
	}
	return m
}()
