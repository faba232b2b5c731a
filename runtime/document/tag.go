package document

// Tag is a tag of the OpenAPI document a tool was generated from, kept in its
// OpenTool document (OpenTool.Tags) as a namespace for finding and grouping
// functions: OpenAPI 3.2 nests tags (Parent) and says what a tag is for
// (Kind: "nav" for navigation, "badge", "audience", or the document's own
// word). The tags of a function are those of its operation.
type Tag struct {
	Name        string `json:"name"`
	Summary     string `json:"summary,omitempty"`
	Description string `json:"description,omitempty"`
	// Parent is the name of the tag this one is nested in ("" for a tag at
	// the top); it names a tag of the document, and parents form no cycle
	// (the generator drops a parent that would).
	Parent string `json:"parent,omitempty"`
	Kind   string `json:"kind,omitempty"`
}
