package gen

import (
	"bytes"
	"go/format"
	"testing"
)

// TestFormatSource: formatSource prints what go/format.Source prints, number
// literals normalised and imports sorted included, with the standard
// library's imports grouped before the others; and a buffer it reuses
// leaves nothing in the next file.
func TestFormatSource(t *testing.T) {
	src := []byte("package p\n\nimport (\n\t\"strings\"\n\t\"github.com/x/y\"\n\t\"context\"\n)\n\n" +
		"// F  is   a function.\nfunc F( ctx context.Context ) { _ = 0X1F + 1E5 + 0O17;_ = strings.ToUpper;  _ = y.Z }\n" +
		"type T struct{ A int `json:\"a\"`\n LongName string }\n")
	want := []byte("package p\n\nimport (\n\t\"context\"\n\t\"strings\"\n\n\t\"github.com/x/y\"\n)\n\n" +
		"// F  is   a function.\nfunc F(ctx context.Context) { _ = 0x1F + 1e5 + 0o17; _ = strings.ToUpper; _ = y.Z }\n\n" +
		"type T struct {\n\tA        int `json:\"a\"`\n\tLongName string\n}\n")
	for range 3 { // the second and third reuse the pool's buffers
		got, err := formatSource(bytes.Clone(src))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("formatSource:\n%s\nwant:\n%s", got, want)
		}
	}
	// Without grouping to do, it is go/format.Source.
	plain := []byte("package p\nimport \"fmt\"\nvar X=fmt.Sprint( 0XAB,1E3 )\n")
	got, err := formatSource(plain)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := format.Source(plain); !bytes.Equal(got, want) {
		t.Errorf("formatSource:\n%s\ngo/format:\n%s", got, want)
	}
	if _, err := formatSource([]byte("package p\nfunc {")); err == nil {
		t.Error("formatSource of a broken file: no error")
	}
}
