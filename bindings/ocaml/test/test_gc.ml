(* The GC side: sizes told to the GC, finalizers (also while nrt's thread pool works), the
   statistics balancing once everything is collected, RSS over ten million strings. *)

open Util
module C = Nrt.Column
module M = Nrt.Memory
module W = Nrt_workload

let sizes () =
  M.set_size_reporting true;
  (* one block: MemInfo (48), length (8), 6 bytes and a NUL; and the 24-byte cell *)
  Alcotest.(check int) "managed string" (48 + 8 + 6 + 1 + 24) (Nrt.Str.size (s "héllo"));
  Alcotest.(check int) "static one-character result: the cell only" 24
    (Nrt.Str.size (Nrt.Str.get (s "abc") 0));
  let before = M.reported_bytes () and handles = M.handles () in
  let x = s (String.make 1000 'x') in
  Alcotest.(check int) "reported_bytes grows by the size" (before + Nrt.Str.size x) (M.reported_bytes ());
  Alcotest.(check int) "one more handle" (handles + 1) (M.handles ());
  M.set_size_reporting false;
  Alcotest.(check bool) "reporting off" false (M.size_reporting ());
  Alcotest.(check int) "no size when off" 0 (Nrt.Str.size (s "héllo"));
  Alcotest.(check int) "columns too" 0 (C.size (C.of_list [ "abc" ]));
  M.set_size_reporting true;
  Alcotest.(check bool) "reporting on" true (M.size_reporting ());
  ignore (Sys.opaque_identity x)

let finalizers () =
  let live () = M.handles () in
  Gc.full_major ();
  let base = live () in
  let make () = for _ = 1 to 1000 do ignore (Sys.opaque_identity (s "some string")) done in
  make ();
  Gc.full_major ();
  Alcotest.(check int) "finalized by the GC" base (live ());
  let keep = List.init 10 (fun k -> s (string_of_int k)) in
  Gc.full_major ();
  Alcotest.(check int) "reachable values stay" (base + 10) (live ());
  Alcotest.(check (list string)) "and keep their bytes" (List.init 10 string_of_int) (List.map ts keep);
  (* Compaction moves the blocks; a handle's address word moves with its block. *)
  let col = C.of_list [ "moved"; "columns" ] in
  Gc.compact ();
  Alcotest.(check (list string)) "strings after compaction" (List.init 10 string_of_int) (List.map ts keep);
  Alcotest.(check (list string)) "columns after compaction" [ "moved"; "columns" ] (C.to_list col);
  Alcotest.(check string) "calls after compaction" "MOVED" (ts (Nrt.Str.upper (s "moved")))

(* A UDF applied by another OCaml thread runs on nrt's pool with the runtime lock released;
   meanwhile this thread makes garbage and collects it, so finalizers drop nrt references
   while the pool's workers allocate and release strings. *)
let finalizers_during_apply () =
  let rows = List.init 200_000 (fun k -> Printf.sprintf "row %d straße" k) in
  let input = C.of_list rows in
  let u = Nrt.Udf.compile "lambda s: (s.upper() + s.casefold()) * 3" in
  let started = Atomic.make false and finished = Atomic.make false in
  let result = ref None in
  let worker = Thread.create (fun () ->
      Atomic.set started true;
      result := Some (Nrt.Udf.apply ~threads:2 ~layout:C.Utf8 u [ input ]);
      Atomic.set finished true) () in
  while not (Atomic.get started) do Thread.yield () done;
  let rounds = ref 0 and during = ref 0 in
  while not (Atomic.get finished) do
    for _ = 1 to 500 do ignore (Sys.opaque_identity (Nrt.Str.upper (s "garbage"))) done;
    ignore (Sys.opaque_identity (C.of_list [ "a"; "b" ]));
    let before = M.handles () in
    Gc.full_major ();
    incr rounds;
    if M.handles () < before && not (Atomic.get finished) then incr during
  done;
  Thread.join worker;
  Printf.printf "  %d collections with finalizers while the apply ran (of %d)\n%!" !during !rounds;
  Alcotest.(check bool) "finalizers ran during the apply" true (!during >= 1);
  let out = Option.get !result in
  let expect r =
    let u = String.uppercase_ascii r and l = String.lowercase_ascii r in
    let fix x = Str.global_replace (Str.regexp_string "STRAßE") "STRASSE" x in
    let fold x = Str.global_replace (Str.regexp_string "straße") "strasse" x in
    let one = fix u ^ fold l in
    one ^ one ^ one
  in
  Alcotest.(check bool) "the apply's result" true
    (Array.of_list (C.to_list out) = Array.map expect (Array.of_list rows))

let pacing () =
  Alcotest.(check bool) "off by default" false (M.live_bytes_pacing ());
  M.set_live_bytes_pacing true;
  Alcotest.(check bool) "on" true (M.live_bytes_pacing ());
  let x = List.init 500 (fun k -> s (string_of_int k ^ " pacing")) in
  Alcotest.(check bool) "values still work" true (ts (List.nth x 499) = "499 pacing");
  M.set_live_bytes_pacing false;
  Alcotest.(check bool) "live_bytes counts nrt's memory" true (M.live_bytes () > 0)

(* The loop of Nrt_workload in child processes: sizes told, not told, not told but paced by
   nrt's live bytes. *)
let rss_bound_mb = 64

let rss () =
  let strings = W.env_int "NRT_OCAML_STRINGS" 10_000_000 in
  let columns = W.env_int "NRT_OCAML_COLUMNS" 10_000 in
  let run sizes pacing = W.in_child ~strings ~columns ~sizes ~pacing in
  let on = run true false and off = run false false and paced = run false true in
  let mb r = float (r.W.peak_kb - r.W.start_kb) /. 1024. in
  let table =
    Printf.sprintf "peak RSS above the start over %d strings and %d columns:\n" strings columns
    ^ String.concat ""
        (List.map
           (fun (name, r) -> Printf.sprintf "  %-34s %7.1f MB %6.2f s\n" name (mb r) r.W.seconds)
           [ ("sizes reported (the default)", on); ("no sizes", off);
             ("no sizes, live-bytes pacing", paced) ])
    ^ Printf.sprintf "  no sizes / sizes: %.1fx\n" (mb off /. max (mb on) 0.1)
  in
  print_string table;
  (* The suite's output is captured; scripts/test-ocaml.sh prints this file. *)
  Option.iter
    (fun path ->
      let oc = open_out_gen [ Open_append; Open_creat ] 0o644 path in
      output_string oc table;
      close_out oc)
    (Sys.getenv_opt "NRT_OCAML_REPORT");
  List.iter
    (fun (name, r) ->
      Alcotest.(check int) (name ^ ": all made") columns r.W.columns;
      Alcotest.(check int) (name ^ ": alloc == free") r.W.stats.alloc r.W.stats.free;
      Alcotest.(check int) (name ^ ": mi_alloc == mi_free") r.W.stats.mi_alloc r.W.stats.mi_free;
      Alcotest.(check int) (name ^ ": every value collected") 0 r.W.handles)
    [ ("sizes", on); ("no sizes", off); ("paced", paced) ];
  Alcotest.(check bool) (Printf.sprintf "sizes: under %d MB" rss_bound_mb) true
    (mb on < float rss_bound_mb);
  Alcotest.(check bool) (Printf.sprintf "paced: under %d MB" rss_bound_mb) true
    (mb paced < float rss_bound_mb)

let stats () =
  Gc.full_major () (* no garbage left whose finalizer could run in between *);
  let a = Nrt.stats () in
  let x = s (String.make 100 'y') in
  let b = Nrt.stats () in
  Alcotest.(check int) "two blocks: the string and its cell" (a.alloc + 2) b.alloc;
  Alcotest.(check int) "one MemInfo" (a.mi_alloc + 1) b.mi_alloc;
  Alcotest.(check bool) "bytes counted" true (b.bytes_alloc - a.bytes_alloc >= 100 + 48 + 24);
  Alcotest.(check int) "nothing freed" a.free b.free;
  Alcotest.(check bool) "cores" true (Nrt.cores () >= 1);
  ignore (Sys.opaque_identity x)

(* Last: every value of the earlier tests is garbage by now. *)
let balance () =
  Gc.full_major ();
  let st = Nrt.stats () in
  Alcotest.(check int) "no handle left" 0 (M.handles ());
  Alcotest.(check int) "reported bytes back to 0" 0 (M.reported_bytes ());
  Alcotest.(check int) "alloc == free" st.alloc st.free;
  Alcotest.(check int) "mi_alloc == mi_free" st.mi_alloc st.mi_free;
  Alcotest.(check int) "no live bytes" 0 (M.live_bytes ())

let tests =
  [ case "sizes told to the GC" sizes;
    case "statistics" stats;
    case "finalizers drop references" finalizers;
    case "finalizers while the thread pool works" finalizers_during_apply;
    case "live-bytes pacing" pacing;
    Alcotest.test_case "RSS with and without sizes (child processes)" `Slow rss ]

let final = [ case "statistics balance once all is collected" balance ]
