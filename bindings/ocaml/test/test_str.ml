(* Nrt.Str: every function, against CPython 3.11's results. *)

open Util
module S = Nrt.Str

let construction () =
  check_str "round trip" "naïve ﬁ ∑" (s "naïve ﬁ ∑");
  check_str "empty" "" (s "");
  Alcotest.(check int) "length counts code points" 5 (S.length (s "héllo"));
  Alcotest.(check int) "byte_length" 6 (S.byte_length (s "héllo"));
  Alcotest.(check bool) "equal" true (S.equal (s "abc") (s "abc"));
  Alcotest.(check bool) "not equal" false (S.equal (s "abc") (s "abd"));
  Alcotest.(check bool) "compare by code point" true (S.compare (s "z") (s "é") < 0);
  Alcotest.(check int) "compare equal" 0 (S.compare (s "é") (s "é"))

let invalid_utf8 () =
  let bad input offset =
    match S.of_string input with
    | _ -> Alcotest.failf "%S accepted" input
    | exception Nrt.Invalid_utf8 { row; offset = o; message } ->
      Alcotest.(check (option int)) "no row" None row;
      Alcotest.(check int) "offset" offset o;
      Alcotest.(check bool) "Python's message" true
        (String.length message > 20 && String.sub message 0 20 = "'utf-8' codec can't ")
  in
  bad "ab\xffc" 2;
  bad "\xc3" 0;
  bad "ok \xed\xa0\x80" 3 (* a surrogate *);
  bad "\xc0\xaf" 0 (* overlong *);
  match S.of_string "x\xfe" with
  | _ -> ()
  | exception Nrt.Invalid_utf8 { message; _ } ->
    Alcotest.(check string) "message" "'utf-8' codec can't decode byte 0xfe in position 1: invalid start byte" message

let case_mapping () =
  check_str "upper" "STRASSE FI" (S.upper (s "straße ﬁ"));
  check_str "lower final sigma" "σας" (S.lower (s "ΣΑΣ"));
  check_str "casefold" "strasse" (S.casefold (s "Straße"));
  check_str "capitalize" "Hello world" (S.capitalize (s "hello world"));
  check_str "title" "ǅungla Fix" (S.title (s "ǅungla ﬁx"));
  check_str "swapcase" "HELLO world" (S.swapcase (s "hello WORLD"))

let concat_index_slice () =
  check_str "concat" "ab" (S.concat (s "a") (s "b"));
  check_str "repeat" "ababab" (S.repeat (s "ab") 3);
  check_str "repeat 0" "" (S.repeat (s "ab") 0);
  check_str "get" "é" (S.get (s "héllo") 1);
  check_str "get negative" "o" (S.get (s "héllo") (-1));
  raises "IndexError" ~part:"string index out of range" (fun () -> S.get (s "ab") 5);
  check_str "slice" "éll" (S.slice ~start:1 ~stop:4 (s "héllo"));
  check_str "slice reversed" "olléh" (S.slice ~step:(-1) (s "héllo"));
  check_str "slice step" "hlo" (S.slice ~step:2 (s "héllo"));
  raises "ValueError" ~part:"slice step cannot be zero" (fun () -> S.slice ~step:0 (s "ab"))

let strip_split_join () =
  check_str "strip" "a b" (S.strip (s "  a b  "));
  check_str "strip chars" "a" (S.strip ~chars:(s "x") (s "xxaxx"));
  check_str "lstrip" "axx" (S.lstrip ~chars:(s "x") (s "xxaxx"));
  check_str "rstrip" "xxa" (S.rstrip ~chars:(s "x") (s "xxaxx"));
  check_strs "split sep" [ "a"; "b"; ""; "c" ] (S.split ~sep:(s ",") (s "a,b,,c"));
  check_strs "split whitespace" [ "a"; "b" ] (S.split (s " a  b "));
  check_strs "split maxsplit" [ "a"; "b,,c" ] (S.split ~sep:(s ",") ~maxsplit:1 (s "a,b,,c"));
  check_strs "rsplit" [ "a,b,"; "c" ] (S.rsplit ~sep:(s ",") ~maxsplit:1 (s "a,b,,c"));
  raises "ValueError" ~part:"empty separator" (fun () -> S.split ~sep:(s "") (s "abc"));
  check_strs "splitlines" [ "l1"; "l2"; "l3" ] (S.splitlines (s "l1\nl2\r\nl3"));
  check_strs "splitlines keepends" [ "l1\n"; "l2\r\n"; "l3" ]
    (S.splitlines ~keepends:true (s "l1\nl2\r\nl3"));
  let a, b, c = S.partition (s "a=b=c") (s "=") in
  check_strs "partition" [ "a"; "="; "b=c" ] [ a; b; c ];
  let a, b, c = S.rpartition (s "a=b=c") (s "=") in
  check_strs "rpartition" [ "a=b"; "="; "c" ] [ a; b; c ];
  check_str "join" "x-y-z" (S.join (s "-") [ s "x"; s "y"; s "z" ]);
  check_str "join empty" "" (S.join (s "-") [])

let search_replace () =
  check_str "replace" "bbbbbb" (S.replace (s "aaa") (s "a") (s "bb"));
  check_str "replace count" "bbbba" (S.replace ~count:2 (s "aaa") (s "a") (s "bb"));
  Alcotest.(check int) "find" 2 (S.find (s "héllo") (s "l"));
  Alcotest.(check int) "find start" 5 (S.find ~start:3 (s "abcabc") (s "c"));
  Alcotest.(check int) "find missing" (-1) (S.find ~stop:2 (s "abcabc") (s "c"));
  Alcotest.(check int) "rfind" 3 (S.rfind (s "héllo") (s "l"));
  Alcotest.(check int) "index" 1 (S.index (s "héllo") (s "é"));
  Alcotest.(check int) "rindex" 3 (S.rindex (s "héllo") (s "l"));
  raises "ValueError" ~part:"substring not found" (fun () -> S.index (s "abc") (s "z"));
  raises "ValueError" ~part:"substring not found" (fun () -> S.rindex (s "abc") (s "z"));
  Alcotest.(check int) "count" 2 (S.count (s "héllo") (s "l"));
  Alcotest.(check int) "count empty" 6 (S.count (s "héllo") (s ""));
  Alcotest.(check bool) "startswith" true (S.startswith (s "héllo") (s "hé"));
  Alcotest.(check bool) "startswith start" true (S.startswith ~start:1 (s "héllo") (s "él"));
  Alcotest.(check bool) "endswith" true (S.endswith (s "héllo") (s "lo"));
  Alcotest.(check bool) "endswith stop" false (S.endswith ~stop:3 (s "héllo") (s "lo"));
  Alcotest.(check bool) "contains" true (S.contains (s "héllo") (s "éll"));
  Alcotest.(check bool) "contains not" false (S.contains (s "héllo") (s "x"))

let predicates () =
  let t name f input expected = Alcotest.(check bool) (name ^ " " ^ input) expected (f (s input)) in
  t "isalpha" S.isalpha "héllo" true;
  t "isalpha" S.isalpha "h1" false;
  t "isalnum" S.isalnum "Ab1" true;
  t "isdecimal" S.isdecimal "²" false;
  t "isdigit" S.isdigit "²" true;
  t "isnumeric" S.isnumeric "½" true;
  t "isspace" S.isspace " \t\u{2003}" true;
  t "isupper" S.isupper "ÀB" true;
  t "islower" S.islower "àb" true;
  t "istitle" S.istitle "Hello World" true;
  t "isascii" S.isascii "é" false;
  t "isascii empty" S.isascii "" true;
  t "isidentifier" S.isidentifier "x_1" true;
  t "isprintable" S.isprintable "\x07" false

let conversions () =
  check_str "of_int" "-42" (S.of_int (-42));
  check_str "of_float" "0.1" (S.of_float 0.1);
  check_str "of_float exponent" "1e+16" (S.of_float 1e16);
  check_str "format_int" "1,234,567" (S.format_int 1234567 ",d");
  check_str "format_int hex" "0xff" (S.format_int 255 "#x");
  check_str "format_float" "3.14" (S.format_float 3.14159 ".2f");
  raises "ValueError" ~part:"Unknown format code 'q'" (fun () -> S.format_int 1 "q");
  Alcotest.(check int) "to_int" (-123) (S.to_int (s "  -12_3 "));
  Alcotest.(check int) "to_int base" 255 (S.to_int ~base:16 (s "ff"));
  Alcotest.(check int) "to_int base 0" 31 (S.to_int ~base:0 (s "0x1f"));
  raises "ValueError" ~part:"invalid literal for int() with base 10: 'x'" (fun () -> S.to_int (s "x"));
  raises "OverflowError" (fun () -> S.to_int (s "9223372036854775807"));
  Alcotest.(check (float 0.)) "to_float" 1000.0 (S.to_float (s " 1e3 "));
  raises "ValueError" ~part:"could not convert string to float" (fun () -> S.to_float (s "x"));
  Alcotest.(check int) "ord" 8364 (S.ord (s "€"));
  raises "TypeError" ~part:"ord() expected a character" (fun () -> S.ord (s "ab"));
  check_str "chr" "€" (S.chr 8364);
  raises "ValueError" ~part:"chr() arg not in range(0x110000)" (fun () -> S.chr 0x110000)

let padding () =
  check_str "center" "**ab**" (S.center ~fill:(s "*") (s "ab") 6);
  check_str "ljust" "ab   " (S.ljust (s "ab") 5);
  check_str "rjust" "---ab" (S.rjust ~fill:(s "-") (s "ab") 5);
  raises "TypeError" ~part:"exactly one character" (fun () -> S.center ~fill:(s "ab") (s "x") 5);
  check_str "zfill" "-00042" (S.zfill (s "-42") 6);
  check_str "expandtabs" "a   b" (S.expandtabs ~tabsize:4 (s "a\tb"));
  check_str "expandtabs default" "a       b" (S.expandtabs (s "a\tb"));
  check_str "removeprefix" "x" (S.removeprefix (s "prefix_x") (s "prefix_"));
  check_str "removesuffix" "x" (S.removesuffix (s "x.txt") (s ".txt"))

let tests =
  [ case "construction, length, comparison" construction;
    case "invalid UTF-8 is rejected" invalid_utf8;
    case "case mapping" case_mapping;
    case "concatenation, indexing, slicing" concat_index_slice;
    case "strip, split, join" strip_split_join;
    case "search and replace" search_replace;
    case "predicates" predicates;
    case "conversions and format" conversions;
    case "padding" padding ]
