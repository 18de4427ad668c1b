; Fanout with raise: paths may end in a block marked raising (!numba_exception_output).
; PASSES: normalize,null,fanout,fanout-raise
; STATS: per_bb=0 diamond=0 fanout=1 fanout_raise=2 null=0 normalized=0
; EXPECT raise_path entry 0 0
; EXPECT raise_path ok 0 0
; EXPECT two_raises entry 0 0
; EXPECT two_raises ok 0 0
; EXPECT plain entry 0 0
; EXPECT plain left 0 0
; EXPECT plain right 0 0
; EXPECT decref_on_raising_path entry 1 0
; EXPECT decref_on_raising_path ok 0 1
; EXPECT decref_on_raising_path err 0 1
; EXPECT unmarked_exit entry 1 0
; EXPECT unmarked_exit ok 0 1
; EXPECT all_paths_raise entry 1 0

declare void @NRT_incref(i8*)
declare void @NRT_decref(i8*)

; must go: the pruned function takes no reference on the raising path (Numba's leaks one)
define i32 @raise_path(i1 %c, i8* %p, i32* %excinfo) {
entry:
  call void @NRT_incref(i8* %p)
  br i1 %c, label %ok, label %err
ok:
  call void @NRT_decref(i8* %p)
  ret i32 0
err:
  store i32 1, i32* %excinfo, !numba_exception_output !0
  ret i32 1
}

; must go: two raising exits
define i32 @two_raises(i1 %c, i1 %d, i8* %p, i32* %excinfo) {
entry:
  call void @NRT_incref(i8* %p)
  br i1 %c, label %ok, label %check
check:
  br i1 %d, label %err1, label %err2
ok:
  call void @NRT_decref(i8* %p)
  ret i32 0
err1:
  store i32 1, i32* %excinfo, !numba_exception_output !0
  ret i32 1
err2:
  store i32 2, i32* %excinfo, !numba_exception_output !0
  ret i32 1
}

; must go (by the fanout sub-pass): no raising path
define void @plain(i1 %c, i8* %p) {
entry:
  call void @NRT_incref(i8* %p)
  br i1 %c, label %left, label %right
left:
  call void @NRT_decref(i8* %p)
  ret void
right:
  call void @NRT_decref(i8* %p)
  ret void
}

; must stay: a decref of another value on the raising path
define i32 @decref_on_raising_path(i1 %c, i8* %p, i8* %q, i32* %excinfo) {
entry:
  call void @NRT_incref(i8* %p)
  br i1 %c, label %ok, label %err
ok:
  call void @NRT_decref(i8* %p)
  ret i32 0
err:
  call void @NRT_decref(i8* %q)
  store i32 1, i32* %excinfo, !numba_exception_output !0
  ret i32 1
}

; must stay: an exit without the marker is not raising
define i32 @unmarked_exit(i1 %c, i8* %p, i32* %excinfo) {
entry:
  call void @NRT_incref(i8* %p)
  br i1 %c, label %ok, label %err
ok:
  call void @NRT_decref(i8* %p)
  ret i32 0
err:
  store i32 1, i32* %excinfo
  ret i32 1
}

; must stay: no decref at all (every path raises)
define i32 @all_paths_raise(i8* %p, i32* %excinfo) {
entry:
  call void @NRT_incref(i8* %p)
  store i32 1, i32* %excinfo, !numba_exception_output !0
  ret i32 1
}

!0 = !{i1 true}
