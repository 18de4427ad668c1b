(* Nrt.Udf: compiling, applying, and errors as exceptions. *)

open Util
module C = Nrt.Column
module U = Nrt.Udf

let seed =
  "def udf(string):\n\
  \    if len(string) > 2:\n\
  \        result = string.upper()\n\
  \    else:\n\
  \        result = string + string\n\
  \    return result + 'abc'\n"

let apply () =
  let u = U.compile seed in
  Alcotest.(check int) "nparams" 1 (U.nparams u);
  let out = U.apply u [ C.of_options [ Some "straße"; Some "x"; None ] ] in
  Alcotest.(check (list (option string))) "seed UDF" [ Some "STRASSEabc"; Some "xxabc"; None ]
    (C.to_options out);
  Alcotest.(check bool) "utf8_view by default" true (C.kind out = C.Utf8_view);
  let out = U.apply ~threads:2 ~layout:C.Large_utf8 u [ C.of_list [ "ab"; "abc" ] ] in
  Alcotest.(check bool) "layout" true (C.kind out = C.Large_utf8);
  Alcotest.(check (list string)) "two threads" [ "abababc"; "ABCabc" ]
    (C.to_list out)

let params () =
  let u = U.compile ~params:[ U.Str; U.Int; U.Float; U.Bool ]
      "lambda s, n, x, b: s * n + f'{x:.1f}' + ('!' if b else '?')" in
  Alcotest.(check int) "nparams" 4 (U.nparams u);
  let out = U.apply u [ C.of_list [ "ab"; "c" ]; C.of_ints [ Some 2; Some 0 ];
                        C.of_floats [ Some 1.25; Some 2.0 ]; C.of_bools [ Some true; Some false ] ] in
  Alcotest.(check (list string)) "mixed parameters" [ "abab1.2!"; "2.0?" ] (C.to_list out);
  let f = U.compile ~func:"second" "def first(s):\n    return s\n\ndef second(s):\n    return len(s)\n" in
  Alcotest.(check bool) "func picks the entry; int result" true
    (C.to_values (U.apply f [ C.of_list [ "héllo" ] ]) = [ Some (C.I 5) ])

let row_errors () =
  let u = U.compile "lambda s: str(int(s) // 2)" in
  (match U.apply u [ C.of_list [ "4"; "6"; "x"; "y" ] ] with
   | _ -> Alcotest.fail "no error"
   | exception Nrt.Error { name; message; row; _ } ->
     Alcotest.(check string) "name" "ValueError" name;
     Alcotest.(check string) "message" "invalid literal for int() with base 10: 'x'" message;
     Alcotest.(check (option int)) "row" (Some 2) row);
  let z = U.compile "lambda s: str(1 // (len(s) - 1))" in
  (match U.apply z [ C.of_list [ "ab"; "a" ] ] with
   | _ -> Alcotest.fail "no error"
   | exception Nrt.Error { name; row; _ } ->
     Alcotest.(check string) "ZeroDivisionError" "ZeroDivisionError" name;
     Alcotest.(check (option int)) "row" (Some 1) row);
  let i = U.compile "lambda s: s[5]" in
  (match U.apply i [ C.of_list [ "abcdefg"; "abc" ] ] with
   | _ -> Alcotest.fail "no error"
   | exception Nrt.Error { name; message; row; _ } ->
     Alcotest.(check string) "IndexError" "IndexError" name;
     Alcotest.(check string) "message" "string index out of range" message;
     Alcotest.(check (option int)) "row" (Some 1) row);
  let out = U.apply ~errors:`Null u [ C.of_list [ "4"; "x" ] ] in
  Alcotest.(check (list (option string))) "errors as nulls" [ Some "2"; None ] (C.to_options out);
  raises "EINVAL" (fun () -> U.apply u [ C.of_list [ "1" ]; C.of_list [ "2" ] ])

let compile_errors () =
  (match U.compile "lambda s: s +" with
   | _ -> Alcotest.fail "compiled"
   | exception Nrt.Compile_error { name; line; column; message } ->
     Alcotest.(check string) "name" "SyntaxError" name;
     Alcotest.(check (pair int int)) "location" (1, 14) (line, column);
     Alcotest.(check bool) "diagnostic with the line" true
       (String.length message > 0 && String.sub message 0 14 = "<udf>:1:14: in"));
  (match U.compile ~file:"mine.py" "def f(s):\n    return t\n" with
   | _ -> Alcotest.fail "compiled"
   | exception Nrt.Compile_error { name; line; column; message } ->
     Alcotest.(check string) "name" "TypeError" name;
     Alcotest.(check (pair int int)) "location" (2, 12) (line, column);
     Alcotest.(check bool) "file named" true (String.sub message 0 8 = "mine.py:"));
  raises "EINVAL" (fun () -> U.compile ~params:[ U.Str; U.Str ] "lambda s: s")

let tests =
  [ case "compile and apply" apply;
    case "parameter types and entries" params;
    case "row errors are exceptions" row_errors;
    case "compile errors" compile_errors ]
