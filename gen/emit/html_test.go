package emit

import "testing"

// TestHTMLText: HTML in a description becomes the text it shows: a link its
// text and address, block elements paragraphs, list items "- " lines,
// entities decoded, comments and scripts left out; a "<" that opens no
// element of HTML is text.
func TestHTMLText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`see <a href="https://e.com/x">the docs</a>.`, "see the docs (https://e.com/x)."},
		{`<a href='https://e.com'>https://e.com</a>`, "https://e.com"},
		{`<A HREF="https://e.com/?a=1&amp;b=2" target=_blank>here</A>`, "here (https://e.com/?a=1&b=2)"},
		{`<a href="#anchor">in page</a>`, "in page"},
		{`<p>one</p><p>two</p>`, "\n\none\n\n\n\ntwo\n\n"},
		{`<ul><li>a</li><li>b</li></ul>`, "\n\n\n  - a\n  - b\n\n"},
		{`a<br>b<br/>c`, "a\nb\nc"},
		{`<b>bold</b> <code>x</code> &lt;tag&gt; &amp; &quot;q&quot; &#39;`, `bold x <tag> & "q" '`},
		{`x<!-- hidden -->y<script>alert("<p>")</script>z`, "xyz"},
		{`GET /users/<id> when a < b and <3`, "GET /users/<id> when a < b and <3"},
		{`<unknown>kept</unknown>`, "<unknown>kept</unknown>"},
		{`no html & no entity`, "no html & no entity"},
		{`<p unclosed`, "<p unclosed"},
		{`<td>a</td><td>b</td>`, "a b "},
		{"<table><tr><td>a</td><td>b</td></tr></table>", "\n\n\n\na b \n\n\n\n"},
	} {
		if got := htmlText(c.in); got != c.want {
			t.Errorf("htmlText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
