(* Peak RSS of the RSS test's loop (Nrt_workload: strings and columns made and never freed by
   hand), each mode in a fresh process: sizes told to the GC through caml_alloc_custom_mem,
   plain custom blocks without a size, and no sizes but nrt's live bytes fed to the GC.
   NRT_OCAML_STRINGS / NRT_OCAML_COLUMNS change the loop (default 10,000,000 and 10,000). *)

module W = Nrt_workload

let () =
  W.main_hook ();
  let strings = W.env_int "NRT_OCAML_STRINGS" 10_000_000 in
  let columns = W.env_int "NRT_OCAML_COLUMNS" 10_000 in
  let runs =
    [ ("sizes reported (default)", true, false); ("no sizes (plain custom blocks)", false, false);
      ("no sizes + live-bytes pacing", false, true) ]
    |> List.map (fun (name, sizes, pacing) -> (name, W.in_child ~strings ~columns ~sizes ~pacing))
  in
  let mb r = float (r.W.peak_kb - r.W.start_kb) /. 1024. in
  let base = mb (snd (List.hd runs)) in
  Printf.printf "peak RSS over %d strings and %d columns of 2,000 rows (one process per mode)\n"
    strings columns;
  Printf.printf "%-32s %14s %10s %14s %9s\n" "mode" "above start" "ratio" "peak" "seconds";
  List.iter
    (fun (name, r) ->
      Printf.printf "%-32s %11.1f MB %9.1fx %11.1f MB %9.2f\n" name (mb r) (mb r /. max base 0.1)
        (float r.W.peak_kb /. 1024.) r.W.seconds)
    runs;
  List.iter
    (fun (name, r) ->
      if r.W.stats.alloc <> r.W.stats.free || r.W.handles <> 0 then
        Printf.printf "%s: NOT BALANCED (alloc %d, free %d, handles %d)\n" name r.W.stats.alloc
          r.W.stats.free r.W.handles)
    runs
