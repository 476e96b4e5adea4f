# zsh -f zsh_complete.zsh FOLDER LINE OUT: types LINE and a Tab into an interactive zsh whose completion
# functions come from FOLDER (compinit), and writes every match the completion offers to OUT, one a line:
# what a user sees listed. Exits 3 without the zpty module. Keys are read in order, so the line typed after
# the Tab runs once the completion is done: no waiting on time.
# The line is typed only once zle reads keys itself: until then the terminal is in canonical mode, where the
# kernel edits the line and the ^U below erased the typed line before zle ever saw its Tab (no matches at all,
# about 1 run in 300 under CPU load). zle puts the terminal in raw mode before it draws its prompt, so the
# prompt after the set-up's output says it is reading. The outputs waited for are spelled by expansions
# (upper case), so that the terminal's echo of the typed commands cannot match them.
zmodload zsh/zpty 2>/dev/null || exit 3
folder=$1 line=$2 out=$3
: >| $out
zpty shell zsh -f -i
# The dump file goes in the current folder (the test's temporary one; hidden, so file completion does not
# list it): compinit run as root with
# `-d /dev/null` replaced the machine's /dev/null with a regular file.
zpty -w shell "PS1='zle%%reading ' PS2='' fpath=(${(q)folder} \$fpath); autoload -U compinit; compinit -u -D -d ${(q)PWD}/.zcompdump"
zpty -w shell "unsetopt auto_list list_beep beep"
# Each compadd call that adds matches (not one that only fills an array: -O, -A, -D) also writes them out.
zpty -w shell "compadd() { if [[ \" \$* \" == *' '-[OAD]' '* ]]; then builtin compadd \"\$@\"; return; fi;
  local -a found; builtin compadd -A found \"\$@\"; print -rl -- \$found >> ${(q)out}; builtin compadd \"\$@\"; }"
zpty -w shell "print -r -- \${(U):-set-up-done}"
zpty -r -m shell reply '*SET-UP-DONE*zle%reading *' || exit 4
zpty -w -n shell "$line"$'\t'
zpty -w shell $'\C-u'"print -r -- \${(U):-completion-done}"
zpty -r -m shell reply '*COMPLETION-DONE*' || exit 5
zpty -d shell
