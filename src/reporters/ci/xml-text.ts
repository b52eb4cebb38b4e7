/**
 * Text of any origin in an XML 1.0 document, exactly where XML can carry it. Characters XML 1.0
 * cannot hold at all (C0 controls but tab, LF and CR; lone surrogates; U+FFFE, U+FFFF) become
 * U+FFFD. CR is written as a reference, as are tab and LF in attributes: a parser turns literal
 * ones into LF and spaces.
 */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function xmlText(text: string): string {
  return text.replace(NOT_XML, '\uFFFD').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
}

export function xmlAttribute(text: string): string {
  return xmlText(text).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\t/g, '&#9;');
}
