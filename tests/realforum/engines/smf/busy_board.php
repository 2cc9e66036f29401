<?php
// SMF 2.1: make the game's board busy through SMF's own createPost(): more topics than one page of
// the board lists, and more replies in the game topic.
//   php busy_board.php DOCROOT PLAN.json
// (the first `newer` threads are newer than the game thread, the rest older: the game thread is on
// the board's first page, and the board's page list on its page has a "Next")
// PLAN: {"forum_id", "thread_id", "threads", "newer", "posts", "authors": [member id...], "start": unix time}
$root = rtrim($argv[1], '/'); chdir($root);
$_SERVER['REMOTE_ADDR'] = '127.0.0.1'; $_SERVER['HTTP_HOST'] = '127.0.0.1'; $_SERVER['REQUEST_URI'] = '/busy_board.php';
require_once($root . '/SSI.php');
require_once($sourcedir . '/Subs-Post.php');
global $smcFunc, $user_info, $board_info;
$plan = json_decode(file_get_contents($argv[2]), true);
$user_info = array_merge($user_info, ['id' => 1, 'is_guest' => false, 'is_admin' => true, 'groups' => [1],
    'permissions' => ['admin_forum', 'moderate_forum']]);
$board_info = ['parent_boards' => []];
function post($tid, $board, $uid, $subject, $body, $time) {
    global $smcFunc;
    $m = $smcFunc['db_fetch_assoc']($smcFunc['db_query']('', 'SELECT real_name, email_address FROM {db_prefix}members
        WHERE id_member = {int:id}', ['id' => $uid]));
    $msg = ['subject' => $smcFunc['htmlspecialchars']($subject), 'body' => $smcFunc['htmlspecialchars']($body),
        'smileys_enabled' => true, 'icon' => 'xx', 'approved' => 1, 'poster_time' => $time];
    $topic = ['id' => $tid, 'board' => $board, 'mark_as_read' => false];
    $poster = ['id' => $uid, 'name' => $m['real_name'], 'email' => $m['email_address'], 'ip' => '127.0.0.1',
        'update_post_count' => true];
    if (!createPost($msg, $topic, $poster)) { fwrite(STDERR, "createPost failed\n"); exit(1); }
    return (int) $topic['id'];
}
$board = (int) $plan['forum_id']; $tid = (int) $plan['thread_id']; $authors = $plan['authors']; $t = (int) $plan['start'];
for ($i = 0; $i < $plan['posts']; $i++) {
    post($tid, $board, $authors[$i % count($authors)], 'Re: partita', "Messaggio di riempimento $i", $t + 60 * $i);
}
for ($i = 0; $i < $plan['threads']; $i++) {
    $when = $i < $plan['newer'] ? $t + 86400 + 60 * $i : $t - 30 * 86400 + 60 * $i;  // after or before the game's posts
    post(0, $board, $authors[$i % count($authors)], "Altra partita $i", "Discussione $i", $when);
}
