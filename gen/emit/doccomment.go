package emit

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"
	"github.com/opentoolgen/opentoolgen/internal/jsontree"
)

// Doc comments carry at most maxDocComment bytes of a description: a longer
// one is cut at a paragraph, line or word boundary, and its last paragraph
// kept when it is at most maxDocTail bytes (the generator's own notes come
// last). The embedded document, and the one -document writes, keep the whole
// text; before, a 50 MB description was written three times.
const (
	maxDocComment = 2 << 10
	maxDocTail    = 512
)

// clipDoc returns text, or when it is longer than maxDocComment its head, a
// line that says how much was left out, and its last paragraph if short. It
// does not copy text.
func clipDoc(text string) string {
	if len(text) <= maxDocComment {
		return text
	}
	tail := ""
	rest := strings.TrimRight(text, " \t\r\n")
	if i := strings.LastIndex(rest, "\n\n"); i >= 0 && len(rest)-i-2 <= maxDocTail {
		tail, rest = rest[i+2:], rest[:i]
	}
	head := rest
	if len(head) > maxDocComment-len(tail) {
		head = head[:maxDocComment-len(tail)]
		for len(head) > 0 && !utf8.RuneStart(rest[len(head)]) {
			head = head[:len(head)-1]
		}
		// the last paragraph break, line break or space in the second half
		for _, sep := range []string{"\n\n", "\n", " "} {
			if i := strings.LastIndex(head, sep); i >= len(head)/2 {
				head = head[:i]
				break
			}
		}
	}
	head = strings.TrimRight(head, " \t\r\n")
	left := len(text) - len(head) - len(tail)
	var b strings.Builder
	b.WriteString(head)
	b.WriteString(" …\n\n(")
	b.WriteString(jsontree.Thousands(left))
	b.WriteString(" bytes of the description are left out here; the document has the whole text.)")
	if tail != "" {
		b.WriteString("\n\n")
		b.WriteString(tail)
	}
	return b.String()
}

// sanitizeLine makes s safe inside a // comment: no line breaks, no control or
// format characters, valid UTF-8.
func sanitizeLine(s string) string {
	if printableASCII(s) { // most lines: nothing to replace
		return strings.TrimRight(s, " ")
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\t':
			b.WriteByte(' ')
		case unicode.IsControl(r), r == '\u2028', r == '\u2029', r == '\uFEFF':
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return strings.TrimRight(b.String(), " ")
}

// printableASCII reports whether s holds only printable ASCII characters
// (space included, tab not), which sanitizeLine keeps as they are.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > '~' {
			return false
		}
	}
	return true
}

// comment renders document text as // lines. Each line is written by us with
// its "// " prefix, so nothing in the text can end the comment or become a
// directive ("//go:generate" needs no space after the slashes).
func comment(text string) *jen.Statement {
	lines := docLines(text)
	if len(lines) == 0 {
		return jen.Null()
	}
	return commentBlock(lines).Line()
}

// commentBlock renders lines (sanitised: docLines, sanitizeLine) as one
// comment, "// " before each line and "//" for a blank one, which jennifer
// writes as it is: every line starts its own line of the source, so that
// the format stage reads a doc comment at the top level as gofmt does and
// reformats it (go/printer's doc comment formatting: lists, code blocks,
// blank lines), once, into what gofmt prints again. Written as a comment
// per line, the lines after the first would be indented by a space: not a
// doc comment to go/printer, left as they were, then reformatted by gofmt.
func commentBlock(lines []string) *jen.Statement {
	if len(lines) == 0 {
		return jen.Null()
	}
	n := 0
	for _, l := range lines {
		n += len(l) + 4
	}
	var b strings.Builder
	b.Grow(n)
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		if l == "" || l == "//" {
			b.WriteString("//")
		} else {
			b.WriteString("// ")
			b.WriteString(l)
		}
	}
	return jen.Comment(b.String())
}

// lineBreaks turns every line break into "\n".
var lineBreaks = strings.NewReplacer("\r\n", "\n", "\r", "\n", "\u2028", "\n", "\u2029", "\n")

// docLines splits text into sanitised lines without leading or trailing
// blanks, and without two blank lines in a row; HTML in the text is made
// plain text (htmlText) and a long text is cut (clipDoc).
func docLines(text string) []string {
	if strings.ContainsAny(text, "<&") {
		text = htmlText(text)
	}
	text = clipDoc(text)
	if strings.ContainsAny(text, "\r\u2028\u2029") {
		text = lineBreaks.Replace(text)
	}
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		l = sanitizeLine(l)
		if l == "" && len(lines) > 0 && lines[len(lines)-1] == "" {
			continue
		}
		lines = append(lines, l)
	}
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// The rule of every doc comment the generator writes on a declaration: it
// starts with the identifier it documents. The document's text is read as a
// Go doc comment first (docLead): a text in the imperative that starts with a
// common verb, or a noun phrase, starts with the identifier ("Get the weather"
// on GetWeather is "GetWeather gets the weather", "The unit" on Unit is "Unit
// is the unit"). Any other text follows a sentence that starts with the
// identifier and says what it stands for: a function "calls" the document's
// function ("Info for a specific pet" on ShowPetByID is "ShowPetByID calls
// showPetById: Info for a specific pet."), a type is what its Origin says
// ("Three capital letters." on Code is "Code is the schema \"Code\" of the
// document: Three capital letters."). The text is kept as the document has
// it, and gets a full stop when its first paragraph is a line that ends in a
// letter or a digit. Struct fields, which Go does not ask to be named first,
// get docLead only.

// docComment is the doc comment of the type or value name from the
// document's text; origin, a sentence that starts with name (Type.Origin),
// is the comment without a text and leads a text that does not start with
// name. Without an origin (struct fields), the text is only read by docLead.
func docComment(name, text, origin string) *jen.Statement {
	lines := docLines(text)
	if len(lines) == 0 {
		if origin == "" {
			return jen.Null()
		}
		return comment(origin)
	}
	lines[0] = docLead(name, lines[0], "is")
	if lead, ok := strings.CutSuffix(origin, "."); ok && strings.HasPrefix(origin, name+" ") {
		leadWith(lines, name, lead, true)
	}
	return comment(strings.Join(lines, "\n"))
}

// funcDoc is the doc comment of the function or method name that calls the
// document's function wire (a C symbol for a library method): a noun phrase
// is what it returns ("The weather" on GetWeather is "GetWeather returns the
// weather"); a text that does not start with name says what it calls.
func funcDoc(name, wire, text string) *jen.Statement {
	return callDoc(name, wire, text, true)
}

// callDoc is funcDoc; sentence says whether the text is the document's
// description, which gets a full stop (not a method and path that stand in
// for a missing one).
func callDoc(name, wire, text string, sentence bool) *jen.Statement {
	lines := docLines(text)
	if len(lines) == 0 {
		return jen.Null()
	}
	lines[0] = docLead(name, lines[0], "returns")
	leadWith(lines, name, name+" calls "+wire, sentence)
	return comment(strings.Join(lines, "\n"))
}

// leadWith puts lead (a clause that starts with name) and a colon before the
// first line of lines when it does not start with name, ending the sentence
// with a full stop when sentence is set, the first paragraph is one line and
// it ends in a letter or a digit.
func leadWith(lines []string, name, lead string, sentence bool) {
	first := lines[0]
	if first == name || strings.HasPrefix(first, name+" ") {
		return
	}
	first = lead + ": " + first
	last, _ := utf8.DecodeLastRuneInString(first)
	if sentence && (len(lines) == 1 || lines[1] == "") && (unicode.IsLetter(last) || unicode.IsDigit(last)) {
		first += "."
	}
	lines[0] = first
}

// docLead is the first line of the doc comment of name whose text starts
// with first (see docComment); a noun phrase follows name and verb.
func docLead(name, first, verb string) string {
	if word, rest, ok := strings.Cut(first, " "); ok && !strings.HasPrefix(first, name+" ") {
		if third, ok := thirdPerson[word]; ok {
			return name + " " + third + " " + rest
		} else if lower := strings.ToLower(word); isThird[lower] && !strings.HasPrefix(rest, "of ") {
			// "Adds two integers" (not "Counts of pets", a noun)
			return name + " " + lower + " " + rest
		} else if a := lower; a == "a" || a == "an" || a == "the" {
			return name + " " + verb + " " + a + " " + rest
		}
	}
	return first
}

// thirdPerson are common verbs that start descriptions in the imperative
// ("Get…", "List…"), by their capitalised form, in the third person.
var thirdPerson = func() map[string]string {
	m := map[string]string{}
	f := strings.Fields(`add adds calculate calculates call calls cancel cancels change changes check checks
		compute computes convert converts count counts create creates delete deletes describe describes
		download downloads fetch fetches find finds generate generates get gets list lists load loads
		look looks make makes read reads remove removes rename renames replace replaces retrieve retrieves
		return returns run runs save saves search searches send sends set sets show shows start starts
		stop stops store stores submit submits trigger triggers update updates upload uploads write writes
		apply applies approve approves close closes compare compares copy copies decode decodes divide divides
		encode encodes filter filters format formats join joins lock locks move moves multiply multiplies
		open opens parse parses patch patches ping pings post posts publish publishes put puts query queries
		register registers reject rejects resolve resolves sort sorts split splits subscribe subscribes
		subtract subtracts sum sums summarize summarizes transform transforms translate translates
		unlock unlocks validate validates verify verifies`)
	for i := 0; i+1 < len(f); i += 2 {
		m[strings.ToUpper(f[i][:1])+f[i][1:]] = f[i+1]
	}
	return m
}()

// isThird are the verbs of thirdPerson in the third person ("adds").
var isThird = func() map[string]bool {
	m := map[string]bool{}
	for _, v := range thirdPerson {
		m[v] = true
	}
	return m
}()
