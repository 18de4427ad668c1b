(* Nrt.Column: construction, reading, whole-column operations, Arrow C Data both ways. *)

open Util
module C = Nrt.Column

let strings () =
  let c = C.of_list [ "a"; "bé"; "" ] in
  Alcotest.(check (list string)) "to_list" [ "a"; "bé"; "" ] (C.to_list c);
  Alcotest.(check int) "length" 3 (C.length c);
  Alcotest.(check int) "null_count" 0 (C.null_count c);
  Alcotest.(check bool) "kind" true (C.kind c = C.Utf8);
  let a = C.of_array ~kind:C.Large_utf8 [| "x"; "y" |] in
  Alcotest.(check bool) "of_array kind" true (C.kind a = C.Large_utf8);
  Alcotest.(check (list string)) "of_array" [ "x"; "y" ] (C.to_list a);
  let v = C.of_options ~kind:C.Utf8_view [ Some "long string past twelve bytes"; None ] in
  Alcotest.(check (list (option string))) "to_options" [ Some "long string past twelve bytes"; None ]
    (C.to_options v);
  Alcotest.(check int) "nulls" 1 (C.null_count v);
  Alcotest.check_raises "to_list of a null" (Invalid_argument "Nrt.Column.to_list: row 1 is null")
    (fun () -> ignore (C.to_list v));
  Alcotest.check_raises "of_list of ints" (Invalid_argument "Nrt.Column.of_list: kind must be Utf8, Large_utf8 or Utf8_view")
    (fun () -> ignore (C.of_list ~kind:C.Int64 [ "1" ]))

let invalid_utf8 () =
  match C.of_list [ "ok"; "fine"; "ba\xffd" ] with
  | _ -> Alcotest.fail "accepted"
  | exception Nrt.Invalid_utf8 { row; offset; message } ->
    Alcotest.(check (option int)) "row" (Some 2) row;
    Alcotest.(check int) "offset" 2 offset;
    Alcotest.(check string) "message"
      "'utf-8' codec can't decode byte 0xff in position 2: invalid start byte" message

let numbers () =
  let i = C.of_ints [ Some 1; None; Some (-3) ] in
  Alcotest.(check bool) "int kind" true (C.kind i = C.Int64);
  Alcotest.(check bool) "int values" true (C.to_values i = [ Some (C.I 1); None; Some (C.I (-3)) ]);
  let f = C.of_floats [ Some 1.5; None ] in
  Alcotest.(check bool) "float values" true (C.to_values f = [ Some (C.F 1.5); None ]);
  let b = C.of_bools (List.init 10 (fun k -> if k = 4 then None else Some (k mod 3 = 0))) in
  Alcotest.(check bool) "bool values" true
    (C.to_values b = List.init 10 (fun k -> if k = 4 then None else Some (C.B (k mod 3 = 0))));
  Alcotest.(check bool) "string values" true
    (C.to_values (C.of_options [ Some "a"; None ]) = [ Some (C.S "a"); None ]);
  Alcotest.check_raises "to_options of ints" (Invalid_argument "Nrt.Column.to_options: not a string column")
    (fun () -> ignore (C.to_options i))

let whole () =
  let c = C.of_list [ "a"; "b"; "c"; "d" ] in
  let sl = C.slice c ~start:1 ~length:2 in
  Alcotest.(check (list string)) "slice" [ "b"; "c" ] (C.to_list sl);
  Alcotest.(check bool) "slice to_values honours the offset" true
    (C.to_values (C.slice (C.of_ints [ Some 1; Some 2; Some 3 ]) ~start:1 ~length:2)
     = [ Some (C.I 2); Some (C.I 3) ]);
  raises "IndexError" (fun () -> C.slice c ~start:3 ~length:5);
  let v = C.convert c C.Utf8_view in
  Alcotest.(check bool) "convert" true (C.kind v = C.Utf8_view && C.equal v c);
  raises "EINVAL" (fun () -> C.convert c C.Int64);
  let cc = C.concat [ c; sl ] in
  Alcotest.(check (list string)) "concat" [ "a"; "b"; "c"; "d"; "b"; "c" ] (C.to_list cc);
  Alcotest.(check bool) "concat kind" true (C.kind (C.concat ~kind:C.Large_utf8 [ c ]) = C.Large_utf8);
  Alcotest.(check int) "concat of none" 0 (C.length (C.concat []));
  Alcotest.(check bool) "equal" true (C.equal c (C.of_list [ "a"; "b"; "c"; "d" ]));
  Alcotest.(check bool) "not equal" false (C.equal c sl)

let size () =
  let rows = List.init 100 (fun k -> Printf.sprintf "row %d" k) in
  let c = C.of_list rows in
  let data = List.fold_left (fun n r -> n + String.length r) 0 rows in
  (* offsets (101 int32) and the bytes, no validity bitmap; buffers may keep some room *)
  Alcotest.(check bool) "size covers offsets and bytes" true (C.size c >= 404 + data);
  Alcotest.(check bool) "size is about that" true (C.size c < 2 * (404 + data) + 4096);
  Alcotest.(check bool) "a slice reports the buffers it keeps" true
    (C.size (C.slice c ~start:0 ~length:1) = C.size c)

(* The C Data Interface structs, as the specification lays them out. *)
module Arrow = struct
  open Ctypes

  let array_bytes = 80 and schema_bytes = 72
  let alloc n = allocate_n char ~count:n
  let address p = raw_address_of_ptr (to_voidp p)
  let word p offset = !@(from_voidp (ptr void) (to_voidp (p +@ offset)))
  let set_int64 p offset v = from_voidp int64_t (to_voidp (p +@ offset)) <-@ v

  (* Calls a struct's release callback (at [offset]), as a consumer does. *)
  let release p offset =
    let f = coerce (ptr void) (Foreign.funptr (ptr char @-> returning void)) (word p offset) in
    f p

  let released p offset = is_null (word p offset)
end

let arrow () =
  let c = C.of_options [ Some "a"; None; Some "ccc" ] in
  let arr = Arrow.alloc Arrow.array_bytes and sch = Arrow.alloc Arrow.schema_bytes in
  C.export_arrow c ~array:(Arrow.address arr) ~schema:(Arrow.address sch);
  Alcotest.(check string) "format" "u"
    (Ctypes.coerce (Ctypes.ptr Ctypes.void) Ctypes.string (Arrow.word sch 0));
  let back = C.import_arrow ~array:(Arrow.address arr) ~schema:(Arrow.address sch) () in
  Alcotest.(check bool) "array moved" true (Arrow.released arr 64);
  Alcotest.(check (list (option string))) "round trip" [ Some "a"; None; Some "ccc" ] (C.to_options back);
  Arrow.release sch 56;
  (* A defect: null_count disagreeing with the bitmap. The array stays the caller's. *)
  let arr = Arrow.alloc Arrow.array_bytes and sch = Arrow.alloc Arrow.schema_bytes in
  C.export_arrow (C.of_list [ "x"; "y" ]) ~array:(Arrow.address arr) ~schema:(Arrow.address sch);
  Arrow.set_int64 arr 8 1L;
  raises "ValueError" ~part:"null_count" (fun () ->
      C.import_arrow ~array:(Arrow.address arr) ~schema:(Arrow.address sch) ());
  Alcotest.(check bool) "bad array not moved" false (Arrow.released arr 64);
  Arrow.set_int64 arr 8 0L;
  let trusted = C.import_arrow ~trusted:true ~array:(Arrow.address arr) ~schema:(Arrow.address sch) () in
  Alcotest.(check (list string)) "trusted import" [ "x"; "y" ] (C.to_list trusted);
  Arrow.release sch 56

let lists () =
  let u = Nrt.Udf.compile "lambda s: s.split(',')" in
  let l = Nrt.Udf.apply u [ C.of_list [ "a,b"; ""; "c" ] ] in
  Alcotest.(check bool) "list kind" true (C.kind l = C.List);
  Alcotest.(check bool) "list values" true
    (C.to_values l = [ Some (C.L [ "a"; "b" ]); Some (C.L [ "" ]); Some (C.L [ "c" ]) ]);
  let n = Nrt.Udf.apply (Nrt.Udf.compile "lambda s: [len(w) for w in s.split(',')]")
      [ C.of_list [ "a,bb"; "" ] ] in
  Alcotest.(check bool) "list of int values" true
    (C.to_values n = [ Some (C.Ln [ Some (C.I 1); Some (C.I 2) ]); Some (C.Ln [ Some (C.I 0) ]) ]);
  let f = Nrt.Udf.apply (Nrt.Udf.compile "lambda s: (len(s) / 2, -0.5)") [ C.of_list [ "abc" ] ] in
  Alcotest.(check bool) "tuple of floats" true
    (C.to_values f = [ Some (C.Ln [ Some (C.F 1.5); Some (C.F (-0.5)) ]) ]);
  let b = Nrt.Udf.apply (Nrt.Udf.compile "lambda s: [c.isupper() for c in s]") [ C.of_list [ "aB" ] ] in
  Alcotest.(check bool) "list of bool values" true
    (C.to_values b = [ Some (C.Ln [ Some (C.B false); Some (C.B true) ]) ])

let tests =
  [ case "string columns" strings;
    case "invalid UTF-8 names the row" invalid_utf8;
    case "int, float and bool columns" numbers;
    case "slice, convert, concat, equal" whole;
    case "size reported to the GC" size;
    case "Arrow C Data export and import" arrow;
    case "list columns" lists ]
