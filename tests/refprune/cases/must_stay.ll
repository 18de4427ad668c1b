; Pairs that every sub-pass together must leave alone.
; PASSES: all
; STATS: per_bb=0 diamond=0 fanout=0 fanout_raise=0 null=0 normalized=0
; EXPECT decref_in_loop entry 1 0
; EXPECT decref_in_loop loop 0 1
; EXPECT incref_in_loop loop 1 0
; EXPECT incref_in_loop exit 0 1
; EXPECT back_edge_to_head head 1 0
; EXPECT back_edge_to_head exit 0 1
; EXPECT one_branch entry 1 0
; EXPECT one_branch left 0 1
; EXPECT unrelated_between entry 1 0
; EXPECT unrelated_between left 0 1
; EXPECT unrelated_between merge 0 1
; EXPECT phi_related entry 1 0
; EXPECT phi_related merge 0 1
; EXPECT raise_with_decref entry 1 0
; EXPECT raise_with_decref ok 0 1
; EXPECT raise_with_decref err 0 1
; EXPECT side_entry a 1 0
; EXPECT side_entry join 0 1
; EXPECT twice_after entry 1 0
; EXPECT twice_after d 0 1

declare void @NRT_incref(i8*)
declare void @NRT_decref(i8*)

define void @decref_in_loop(i1 %c, i8* %p) {
entry:
  call void @NRT_incref(i8* %p)
  br label %loop
loop:
  call void @NRT_decref(i8* %p)
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

define void @incref_in_loop(i1 %c, i8* %p) {
entry:
  br label %loop
loop:
  call void @NRT_incref(i8* %p)
  br i1 %c, label %loop, label %exit
exit:
  call void @NRT_decref(i8* %p)
  ret void
}

define void @back_edge_to_head(i1 %c, i8* %p) {
entry:
  br label %head
head:
  call void @NRT_incref(i8* %p)
  br label %body
body:
  br i1 %c, label %head, label %exit
exit:
  call void @NRT_decref(i8* %p)
  ret void
}

define void @one_branch(i1 %c, i8* %p) {
entry:
  call void @NRT_incref(i8* %p)
  br i1 %c, label %left, label %right
left:
  call void @NRT_decref(i8* %p)
  br label %merge
right:
  br label %merge
merge:
  ret void
}

define void @unrelated_between(i1 %c, i8* %p, i8* %q) {
entry:
  call void @NRT_incref(i8* %p)
  br i1 %c, label %left, label %right
left:
  call void @NRT_decref(i8* %q)
  br label %merge
right:
  br label %merge
merge:
  call void @NRT_decref(i8* %p)
  ret void
}

; the decref acts on a phi of %p: a different SSA value, so not related
define void @phi_related(i1 %c, i8* %p) {
entry:
  call void @NRT_incref(i8* %p)
  br i1 %c, label %left, label %right
left:
  br label %merge
right:
  br label %merge
merge:
  %m = phi i8* [ %p, %left ], [ %p, %right ]
  call void @NRT_decref(i8* %m)
  ret void
}

; an unrelated decref on the raising path
define i32 @raise_with_decref(i1 %c, i8* %p, i8* %q, i32* %exc) {
entry:
  call void @NRT_incref(i8* %p)
  br i1 %c, label %ok, label %err
ok:
  call void @NRT_decref(i8* %p)
  ret i32 0
err:
  call void @NRT_decref(i8* %q)
  store i32 1, i32* %exc, !numba_exception_output !0
  ret i32 1
}

define void @side_entry(i1 %c, i8* %p) {
entry:
  br i1 %c, label %a, label %other
a:
  call void @NRT_incref(i8* %p)
  br label %join
other:
  br label %join
join:
  call void @NRT_decref(i8* %p)
  ret void
}

; after the decref a path returns to it without passing the incref
define void @twice_after(i1 %c, i8* %p) {
entry:
  call void @NRT_incref(i8* %p)
  br label %mid
mid:
  br label %d
d:
  call void @NRT_decref(i8* %p)
  br i1 %c, label %mid, label %exit
exit:
  ret void
}

!0 = !{i1 true}
