// Package civil is the Go type of a JSON Schema or OpenAPI string of format
// "date" in generated code: a day of the calendar, without a time of day or
// a time zone (the name is cloud.google.com/go/civil's, for the same thing).
package civil

import (
	"encoding/json"
	"errors"
	"strconv"
	"time"
	"unicode/utf8"
)

// Date is a day of the Gregorian calendar, without a time of day or a time
// zone: the full-date of RFC 3339 ("2026-05-01"), the Go type of a JSON
// Schema or OpenAPI string of format "date" in generated code. Its JSON and
// text forms are exactly YYYY-MM-DD, a four-digit year from 0000 to 9999 and
// a day that the month has; reading anything else (a time of day appended,
// digits missing, February 30th) is an error that quotes the value.
//
// The zero Date is not a valid date (its month and day are 0): IsZero
// reports it, String writes it as "0000-00-00", and the JSON and text
// encoders refuse it, as they refuse any date IsValid rejects. Dates compare
// with ==, Before, After and Compare.
type Date struct {
	Year  int        // 0 to 9999 in a valid date
	Month time.Month // January to December in a valid date
	Day   int        // 1 to the number of days of the month in a valid date
}

// DateOf returns the day of t in t's location.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date{Year: y, Month: m, Day: d}
}

// ParseDate reads an RFC 3339 full-date, exactly YYYY-MM-DD.
func ParseDate(s string) (Date, error) {
	d, why := parseDate(s)
	if why != "" {
		return Date{}, &DateError{Value: s, Reason: why}
	}
	return d, nil
}

// DateError reports a value that is not an RFC 3339 full-date.
type DateError struct {
	Value  string // the value read, as it was
	Reason string // what is wrong with it
}

func (e *DateError) Error() string {
	return "date " + quoteDate(e.Value) + " is not an RFC 3339 full-date (YYYY-MM-DD): " + e.Reason
}

// quoteDate quotes a value read as a date for a message, its first 40
// characters when it is longer. (runtime/decode's Date and DateText read a
// Date in generated decoders.)
func quoteDate(s string) string {
	if utf8.RuneCountInString(s) > 40 {
		s = string([]rune(s)[:40]) + "…"
	}
	return strconv.Quote(s)
}

// parseDate reads s as YYYY-MM-DD; why says what is wrong, "" when nothing is.
func parseDate(s string) (d Date, why string) {
	if len(s) > 10 && (s[10] == 'T' || s[10] == 't' || s[10] == ' ') {
		if _, why := parseDate(s[:10]); why == "" {
			return Date{}, "a date has no time of day"
		}
	}
	year, ok1 := digits(s, 0, 4)
	month, ok2 := digits(s, 5, 7)
	day, ok3 := digits(s, 8, 10)
	if len(s) != 10 || s[4] != '-' || s[7] != '-' || !ok1 || !ok2 || !ok3 {
		return Date{}, "want 4 digits of year, 2 of month and 2 of day, between hyphens"
	}
	d = Date{Year: year, Month: time.Month(month), Day: day}
	switch {
	case month < 1 || month > 12:
		return Date{}, "month " + s[5:7] + " is not 01 to 12"
	case day < 1 || day > daysIn(d.Month, year):
		return Date{}, "day " + s[8:10] + " is not in " + d.Month.String() + " " + s[0:4] + ", which has " + strconv.Itoa(daysIn(d.Month, year)) + " days"
	}
	return d, ""
}

// digits reads s[from:to], ASCII digits only (no sign, no space), as a
// number; false when s is shorter or holds anything else there.
func digits(s string, from, to int) (int, bool) {
	if len(s) < to {
		return 0, false
	}
	n := 0
	for i := from; i < to; i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// daysIn is the number of days of month m of year y (proleptic Gregorian).
func daysIn(m time.Month, y int) int {
	switch m {
	case time.February:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case time.April, time.June, time.September, time.November:
		return 30
	}
	return 31
}

// IsValid reports whether d is a day RFC 3339 can write: a year from 0 to
// 9999, a month from January to December, a day the month has.
func (d Date) IsValid() bool {
	return d.Year >= 0 && d.Year <= 9999 && d.Month >= time.January && d.Month <= time.December &&
		d.Day >= 1 && d.Day <= daysIn(d.Month, d.Year)
}

// IsZero reports whether d is the zero Date (not a valid date).
func (d Date) IsZero() bool { return d == Date{} }

// String writes d as YYYY-MM-DD (the zero Date as "0000-00-00"); a field out
// of the range of a valid date is written as it is, for a message.
func (d Date) String() string { return string(d.appendTo(make([]byte, 0, 10))) }

func (d Date) appendTo(b []byte) []byte {
	b = appendPadded(b, d.Year, 4)
	b = append(b, '-')
	b = appendPadded(b, int(d.Month), 2)
	b = append(b, '-')
	return appendPadded(b, d.Day, 2)
}

// appendPadded appends n with at least width digits (a sign first when n < 0).
func appendPadded(b []byte, n, width int) []byte {
	if n < 0 {
		b = append(b, '-')
		n = -n
	}
	s := strconv.Itoa(n)
	for i := len(s); i < width; i++ {
		b = append(b, '0')
	}
	return append(b, s...)
}

// In returns the start of d (midnight) in loc; it panics if loc is nil, as
// time.Date does.
func (d Date) In(loc *time.Location) time.Time {
	return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, loc)
}

// AddDays returns the date n days after d (before it when n < 0). A date
// that is not valid is normalised first, as time.Date does (January 32 is
// February 1).
func (d Date) AddDays(n int) Date { return DateOf(d.In(time.UTC).AddDate(0, 0, n)) }

// DaysSince returns the number of days from u to d (negative when d is
// before u).
func (d Date) DaysSince(u Date) int {
	return int((d.In(time.UTC).Unix() - u.In(time.UTC).Unix()) / (24 * 60 * 60))
}

// Compare returns -1 when d is before u, +1 when after, 0 when they are
// the same date.
func (d Date) Compare(u Date) int {
	switch {
	case d.Year != u.Year:
		return cmpInt(d.Year, u.Year)
	case d.Month != u.Month:
		return cmpInt(int(d.Month), int(u.Month))
	}
	return cmpInt(d.Day, u.Day)
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Before reports whether d is before u.
func (d Date) Before(u Date) bool { return d.Compare(u) < 0 }

// After reports whether d is after u.
func (d Date) After(u Date) bool { return d.Compare(u) > 0 }

// errInvalidDate is the error of encoding a date IsValid rejects.
func errInvalidDate(d Date) error {
	return errors.New("civil.Date: " + d.String() + " is not a valid date")
}

// MarshalText writes d as YYYY-MM-DD; a date IsValid rejects is an error.
func (d Date) MarshalText() ([]byte, error) {
	if !d.IsValid() {
		return nil, errInvalidDate(d)
	}
	return d.appendTo(make([]byte, 0, 10)), nil
}

// UnmarshalText reads an RFC 3339 full-date (ParseDate).
func (d *Date) UnmarshalText(b []byte) error {
	v, err := ParseDate(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// MarshalJSON writes d as a JSON string "YYYY-MM-DD"; a date IsValid
// rejects is an error.
func (d Date) MarshalJSON() ([]byte, error) {
	if !d.IsValid() {
		return nil, errInvalidDate(d)
	}
	b := make([]byte, 0, 12)
	b = append(b, '"')
	b = d.appendTo(b)
	return append(b, '"'), nil
}

// UnmarshalJSON reads a JSON string holding an RFC 3339 full-date. null
// leaves d as it is, as encoding/json does for other types.
func (d *Date) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return errors.New("civil.Date: got " + quoteDate(string(b)) + ", want a JSON string holding a date (YYYY-MM-DD)")
	}
	return d.UnmarshalText([]byte(s))
}
