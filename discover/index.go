package discover

import (
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/opentoolgen/opentoolgen/runtime/document"
)

// The search is BM25F: BM25 over fields of different weights, each field's
// length normalised on its own. A word of a function's name or summary says
// more of what it does than one of its long description.
var fields = [...]struct {
	weight, b float64
}{
	fieldName:    {3, 0.3},
	fieldSummary: {3, 0.3},
	fieldTag:     {1.5, 0},
	fieldPath:    {1, 0.3},
	fieldVerb:    {0.5, 0},    // the verb of its HTTP method ("get", "create", …)
	fieldText:    {0.5, 0.75}, // the rest of the description, the parameters' names
}

const (
	fieldName = iota
	fieldSummary
	fieldTag
	fieldPath
	fieldVerb
	fieldText
	nFields
)

const (
	bm25K1 = 1.2

	// synonymWeight scales what a synonym of a query word scores (the word
	// itself scores 1).
	synonymWeight = 0.7
)

// index is what search reads of a document: each function's terms by
// field, and each term's document frequency.
type index struct {
	doc     *document.OpenTool
	entries []entry
	df      map[string]int
	avgLen  [nFields]float64
	byName  map[string]int // function name → entries index
	tags    []tagCount     // namespaces in order of first appearance
	tagsIdx map[string]int // lower-case tag → tags index
}

type entry struct {
	fn      *document.Function
	summary string
	freq    map[string]*[nFields]float64 // term → frequency in each field, while the index is built
	tf      map[string]float64           // term → its weighted, length-normalised frequency (BM25F)
	length  [nFields]float64
	tags    map[string]bool // lower case
}

type tagCount struct {
	Name  string `json:"name"`
	Tools int    `json:"tools"`
}

func newIndex(doc *document.OpenTool) *index {
	ix := &index{doc: doc, df: map[string]int{}, byName: map[string]int{}, tagsIdx: map[string]int{}}
	if doc == nil {
		return ix
	}
	var total [nFields]float64
	for i := range doc.Functions {
		f := &doc.Functions[i]
		e := entry{fn: f, summary: summaryOf(f.Description), freq: map[string]*[nFields]float64{}, tags: map[string]bool{}}
		add := func(text string, field int) {
			for _, t := range terms(text) {
				tf := e.freq[t]
				if tf == nil {
					tf = new([nFields]float64)
					e.freq[t] = tf
				}
				tf[field]++
				e.length[field]++
			}
		}
		add(f.Name, fieldName)
		add(e.summary, fieldSummary)
		add(strings.TrimPrefix(strings.TrimSpace(f.Description), e.summary), fieldText)
		for _, p := range f.Parameters {
			add(p.Name, fieldText)
		}
		for _, tag := range f.Tags {
			add(tag, fieldTag)
			ix.countTag(tag, e.tags)
		}
		if f.HTTP != nil {
			add(f.HTTP.Path, fieldPath)
			add(methodVerb(f.HTTP), fieldVerb)
		}
		for t := range e.freq {
			ix.df[t]++
		}
		for k := range total {
			total[k] += e.length[k]
		}
		if _, dup := ix.byName[f.Name]; !dup {
			ix.byName[f.Name] = len(ix.entries)
		}
		ix.entries = append(ix.entries, e)
	}
	for k := range total {
		ix.avgLen[k] = max(total[k]/float64(len(ix.entries)), 1)
	}
	for i := range ix.entries {
		e := &ix.entries[i]
		e.tf = make(map[string]float64, len(e.freq))
		for t, f := range e.freq {
			e.tf[t] = ix.tf(e, f)
		}
		e.freq = nil
	}
	return ix
}

// tf is the weighted, length-normalised frequency of a term in e (BM25F).
func (ix *index) tf(e *entry, freq *[nFields]float64) float64 {
	sum := 0.0
	for k, f := range freq {
		if f > 0 {
			sum += fields[k].weight * f / (1 - fields[k].b + fields[k].b*e.length[k]/ix.avgLen[k])
		}
	}
	return sum
}

// countTag counts a function in namespace tag (once per function).
func (ix *index) countTag(tag string, seen map[string]bool) {
	k := strings.ToLower(tag)
	if seen[k] {
		return
	}
	seen[k] = true
	if i, ok := ix.tagsIdx[k]; ok {
		ix.tags[i].Tools++
		return
	}
	ix.tagsIdx[k] = len(ix.tags)
	ix.tags = append(ix.tags, tagCount{Name: tag, Tools: 1})
}

// methodVerb is what an HTTP request does, in the words tasks use: GET of a
// collection lists, of one item gets.
func methodVerb(h *document.FunctionHTTP) string {
	switch strings.ToUpper(h.Method) {
	case "GET", "HEAD":
		if strings.HasSuffix(h.Path, "}") {
			return "get"
		}
		return "list get"
	case "POST":
		return "create"
	case "PUT":
		return "update set replace"
	case "PATCH":
		return "update"
	case "DELETE":
		return "delete"
	}
	return ""
}

// hit is one function found, with its score.
type hit struct {
	i     int
	score float64
}

// search returns the functions that match query, best first (ties in
// document order), only those in namespace ns when it is not "". Each word
// of the query is a concept: the word and its synonyms (weighted less), one
// term for BM25, whose document frequency is that of any of them.
func (ix *index) search(query, ns string) []hit {
	groups := queryGroups(query)
	exact := strings.TrimSpace(query)
	ns = strings.ToLower(ns)
	n := float64(len(ix.entries))
	// One pass reads each function's frequency of each group; a second
	// scores them, once the groups' document frequencies are known.
	tfs := make([]float64, len(ix.entries)*len(groups))
	df := make([]float64, len(groups))
	for i := range ix.entries {
		e := &ix.entries[i]
		if ns != "" && !e.tags[ns] {
			continue
		}
		for gi, g := range groups {
			tf := 0.0
			for _, qt := range g {
				tf += qt.weight * e.tf[qt.term]
			}
			if tf > 0 {
				tfs[i*len(groups)+gi] = tf
			}
		}
	}
	for i := range ix.entries { // document frequencies over every function, whatever ns
		for gi, g := range groups {
			for _, qt := range g {
				if _, ok := ix.entries[i].tf[qt.term]; ok {
					df[gi]++
					break
				}
			}
		}
	}
	var hits []hit
	for i := range ix.entries {
		e := &ix.entries[i]
		if ns != "" && !e.tags[ns] {
			continue
		}
		score := 0.0
		for gi := range groups {
			if tf := tfs[i*len(groups)+gi]; tf > 0 {
				idf := math.Log(1 + (n-df[gi]+0.5)/(df[gi]+0.5))
				score += idf * tf * (bm25K1 + 1) / (tf + bm25K1)
			}
		}
		if exact != "" && strings.EqualFold(e.fn.Name, exact) {
			score += 100 // the name itself
		}
		if score > 0 || len(groups) == 0 && exact == "" {
			hits = append(hits, hit{i, score})
		}
	}
	sort.SliceStable(hits, func(a, b int) bool { return hits[a].score > hits[b].score })
	return hits
}

// queryTerm is a term a query word stands for, with its weight.
type queryTerm struct {
	term   string
	weight float64
}

// queryGroups returns, for each word of query (stop words left out), the
// terms it matches: the word's stem and its synonyms'. A word whose terms
// an earlier word's group has already is left out (create … new).
func queryGroups(query string) [][]queryTerm {
	var groups [][]queryTerm
	seen := map[string]bool{}
	for _, t := range terms(query) {
		if seen[t] {
			continue
		}
		g := []queryTerm{{t, 1}}
		for _, s := range synonyms[t] {
			if s != t {
				g = append(g, queryTerm{s, synonymWeight})
			}
		}
		for _, qt := range g {
			seen[qt.term] = true
		}
		groups = append(groups, g)
	}
	return groups
}

// synonyms maps a stem to the stems that mean the same in an API (create ~
// add ~ new ~ open, list ~ all, delete ~ remove, update ~ edit ~ patch, …).
var synonyms = func() map[string][]string {
	sets := [][]string{
		{"create", "add", "new", "open", "make", "post", "leave", "start", "submit", "write"},
		{"list", "all", "enumerate", "browse"},
		{"get", "fetch", "retrieve", "read", "show", "view", "see", "look", "inspect", "detail", "info", "download"},
		{"delete", "remove", "destroy", "drop", "erase", "unset", "clear", "revoke"},
		{"update", "edit", "patch", "modify", "change", "set", "replace", "rename", "close", "reopen"},
		{"search", "find", "query", "lookup"},
		{"repository", "repo"},
		{"organization", "org", "organisation"},
		{"pull", "pr"},
		{"authenticated", "me", "my", "mine", "myself"},
		{"user", "account", "person", "people"},
		{"invitation", "invite"},
		{"membership", "member"},
		{"collaborator", "contributor"},
		{"subscription", "subscribe", "watch", "watcher"},
		{"star", "stargazer"},
		{"check", "verify", "test", "status"},
		{"cancel", "abort", "stop"},
		{"rerun", "retry", "restart"},
		{"artifact", "build"},
		{"enable", "activate", "turn"},
		{"disable", "deactivate"},
		{"reaction", "emoji"},
		{"secret", "credential"},
		{"key", "token"},
		{"message", "text", "content"},
	}
	m := map[string][]string{}
	for _, set := range sets {
		stems := make([]string, len(set))
		for i, w := range set {
			stems[i] = stem(w)
		}
		for _, s := range stems {
			m[s] = append(m[s], stems...)
		}
	}
	return m
}()

// stopWords are words a task says that name no function.
var stopWords = map[string]bool{
	"a": true, "an": true, "the": true, "of": true, "to": true, "for": true, "on": true, "in": true, "by": true,
	"with": true, "and": true, "or": true, "is": true, "are": true, "be": true, "this": true, "that": true,
	"it": true, "its": true, "from": true, "as": true, "at": true, "i": true, "which": true, "what": true,
	"some": true, "one": true, "into": true, "about": true, "there": true, "their": true, "do": true,
	"does": true, "can": true, "how": true, "please": true, "want": true, "would": true, "like": true,
}

// terms splits text into lower-case word stems: at every character that is
// not a letter or a digit, at each lower-to-upper case change (camelCase)
// and before the last capital of a run (HTTPServer: http, server); stop
// words are left out.
func terms(text string) []string {
	var out []string
	var word []rune
	flush := func() {
		if len(word) > 0 {
			w := strings.ToLower(string(word))
			if !stopWords[w] {
				out = append(out, stem(w))
			}
			word = word[:0]
		}
	}
	runes := []rune(text)
	for i, r := range runes {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
			continue
		case unicode.IsUpper(r) && i > 0:
			prev := runes[i-1]
			nextLower := i+1 < len(runes) && unicode.IsLower(runes[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || unicode.IsUpper(prev) && nextLower {
				flush()
			}
		case unicode.IsDigit(r) && i > 0 && unicode.IsLetter(runes[i-1]):
			flush()
		}
		word = append(word, r)
	}
	flush()
	return out
}

// stem strips the common English suffixes of w (lower case): plurals,
// -ing, -ed and a final e, so that "create", "creates", "created" and
// "creating" are one term, as are "issue" and "issues", "branch" and
// "branches", "repository" and "repositories".
func stem(w string) string {
	if utf8.RuneCountInString(w) <= 3 {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:len(w)-1]
	}
	switch {
	case strings.HasSuffix(w, "ing") && len(w) > 5:
		w = undouble(w[:len(w)-3])
	case strings.HasSuffix(w, "ed") && len(w) > 4:
		w = undouble(w[:len(w)-2])
	}
	if strings.HasSuffix(w, "e") && len(w) > 4 {
		w = w[:len(w)-1]
	}
	return w
}

// undouble drops the last letter of a stem that ends in a doubled
// consonant ("runn" → "run", "starr" → "star"), not ll, ss or zz.
func undouble(w string) string {
	n := len(w)
	if n >= 3 && w[n-1] == w[n-2] && !strings.ContainsRune("aeioulsz", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

// summaryOf is the first sentence or line of a description, at most
// maxSummary bytes (cut at a word).
func summaryOf(desc string) string {
	s := strings.TrimSpace(desc)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	return clip(s, maxSummary)
}

// clip cuts s to at most n bytes at a word, with "…".
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexByte(s[:n-3], ' ')
	if cut < n/2 {
		cut = n - 3
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
	}
	return strings.TrimRight(s[:cut], " ,;:") + "…"
}
