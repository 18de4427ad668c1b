(* Helpers shared by the test files. *)

let s = Nrt.Str.of_string
let ts = Nrt.Str.to_string
let check_str msg expected v = Alcotest.(check string) msg expected (ts v)
let check_strs msg expected l = Alcotest.(check (list string)) msg expected (List.map ts l)

(* [f ()] raises Nrt.Error named [name] whose message contains [part]. *)
let raises name ?(part = "") f =
  match f () with
  | _ -> Alcotest.failf "expected %s" name
  | exception Nrt.Error e ->
    Alcotest.(check string) "exception name" name e.name;
    let contains =
      let n = String.length part and m = String.length e.message in
      let rec at i = i + n <= m && (String.sub e.message i n = part || at (i + 1)) in
      at 0
    in
    if not contains then Alcotest.failf "message %S lacks %S" e.message part

let case name f = Alcotest.test_case name `Quick f
