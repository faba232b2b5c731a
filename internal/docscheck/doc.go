// Package docscheck holds the tests that keep the documentation true to the
// code: docs/layout.md against the packages go list finds, its table of what
// generated code imports against the golden packages, and the links of the
// README and of docs/ against the files they name; and the project's size
// limits on the code itself (no hand-written Go file over 1,000 lines, no
// function over 120). It has no code of its own.
package docscheck
