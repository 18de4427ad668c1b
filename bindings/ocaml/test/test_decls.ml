(* nrt.decl against the public headers it names, and the check itself on a changed header. *)

open Util
module D = Nrt_decl

let read path =
  let ic = open_in_bin path in
  Fun.protect ~finally:(fun () -> close_in ic) (fun () -> really_input_string ic (in_channel_length ic))

let entries () = D.parse_decl_file (read Nrt_paths.decl_file)
let header name = D.parse_header (read (Filename.concat Nrt_paths.include_dir name))

let matches () =
  let es = entries () in
  Alcotest.(check bool) "declarations read" true (List.length es > 50);
  List.iter
    (fun e ->
      match D.check_entry (header e.D.header) e with
      | None -> ()
      | Some why -> Alcotest.failf "nrt.decl:%d: %s" e.D.line why)
    es

let catches_changes () =
  let es = entries () in
  let find name = List.find (fun e -> match e.D.item with D.Func f -> f.D.name = name | _ -> false) es in
  let changed text = D.parse_header text in
  let upper = find "nrt_str_upper" in
  Alcotest.(check bool) "a changed parameter type" true
    (D.check_entry (changed "NRT_API int nrt_str_upper(const nrt_str *s, nrt_str *out, int err);") upper <> None);
  Alcotest.(check bool) "the same declaration on two lines" true
    (D.check_entry (changed "/* doc */\nNRT_API int nrt_str_upper(const nrt_str *s,\n    nrt_str *out, struct nrt_error *err);") upper = None);
  Alcotest.(check bool) "a missing function" true (D.check_entry (changed "") upper <> None);
  let stats = List.find (fun e -> match e.D.item with D.Struct { sname; _ } -> sname = "nrt_stats" | _ -> false) es in
  Alcotest.(check bool) "a renamed member" true
    (D.check_entry (changed "struct nrt_stats { uint64_t allocs; uint64_t free; };") stats <> None);
  match D.parse_decl_file "@header nrt/x.h\n@frob\nint f(void);\n" with
  | _ -> Alcotest.fail "an unknown annotation was accepted"
  | exception D.Bad m -> Alcotest.(check bool) "names the line" true (String.sub m 0 11 = "nrt.decl:2:")

let tests =
  [ case "nrt.decl matches include/nrt" matches; case "the check catches changes" catches_changes ]
