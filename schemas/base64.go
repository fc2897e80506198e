package schemas

import (
	"errors"
	"fmt"
)

// checkBase64 is the contentEncoding "base64" decoder the compiler uses. It
// accepts what ProtoJSON parsers accept for proto bytes (standard or URL-safe
// alphabet, with or without padding) and rejects anything they would not
// decode. It only scans: the decoded bytes are never needed, and a raw part
// may be megabytes long.
func checkBase64(s string) ([]byte, error) {
	n := len(s)
	pad := 0
	for pad < 2 && n > 0 && s[n-1] == '=' {
		n--
		pad++
	}
	if pad > 0 && (n+pad)%4 != 0 {
		return nil, errors.New("'=' padding does not complete a group of 4 characters")
	}
	if n%4 == 1 {
		return nil, fmt.Errorf("%d base64 characters cannot encode whole bytes", n)
	}
	std, urlSafe := false, false
	for i := 0; i < n; i++ {
		switch c := s[i]; {
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		case c == '+' || c == '/':
			std = true
		case c == '-' || c == '_':
			urlSafe = true
		default:
			return nil, fmt.Errorf("character %q at offset %d is not base64", c, i)
		}
	}
	if std && urlSafe {
		return nil, errors.New("mixes the standard (+/) and URL-safe (-_) base64 alphabets")
	}
	return nil, nil
}
