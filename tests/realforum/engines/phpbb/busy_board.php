<?php
// phpBB 3.3: make the game's board busy through phpBB's own submit_post(): more topics than one
// page of the board lists, and more replies in the game topic.
//   php busy_board.php DOCROOT PLAN.json
// (the first `newer` threads are newer than the game thread, the rest older: the game thread is on
// the board's first page, and the board's page list on its page has a "Next")
// PLAN: {"forum_id", "thread_id", "threads", "newer", "posts", "authors": [user id...], "start": unix time, "forum_name"}
define('IN_PHPBB', true);
$phpbb_root_path = rtrim($argv[1], '/') . '/'; $phpEx = 'php';
$_SERVER['REMOTE_ADDR'] = '127.0.0.1'; $_SERVER['HTTP_HOST'] = '127.0.0.1'; $_SERVER['REQUEST_URI'] = '/busy_board.php';
include($phpbb_root_path . 'common.php');
include($phpbb_root_path . 'includes/functions_posting.php');
$plan = json_decode(file_get_contents($argv[2]), true);
$user->session_begin(false); $auth->acl($user->data); $user->setup();
function act_as($uid) {
    global $db, $user, $auth;
    $row = $db->sql_fetchrow($db->sql_query('SELECT * FROM ' . USERS_TABLE . ' WHERE user_id = ' . (int) $uid));
    $user->data = array_merge($user->data, $row); $user->ip = '127.0.0.1'; $auth->acl($user->data);
}
function post($mode, $fid, $tid, $uid, $subject, $text, $time, $forum_name) {
    global $user; act_as($uid);
    $u = $b = $f = ''; generate_text_for_storage($text, $u, $b, $f, true, true, true); $poll = [];
    $data = ['forum_id' => $fid, 'topic_id' => $tid, 'icon_id' => 0, 'enable_bbcode' => true, 'enable_smilies' => true,
        'enable_urls' => true, 'enable_sig' => false, 'message' => $text, 'message_md5' => md5($text),
        'bbcode_bitfield' => $b, 'bbcode_uid' => $u, 'post_edit_locked' => 0, 'topic_title' => $subject,
        'notify_set' => false, 'notify' => false, 'post_time' => $time, 'forum_name' => $forum_name,
        'enable_indexing' => true, 'force_approved_state' => true, 'force_visibility' => true];
    submit_post($mode, $subject, $user->data['username'], POST_NORMAL, $poll, $data);
    return (int) $data['topic_id'];
}
$fid = (int) $plan['forum_id']; $tid = (int) $plan['thread_id']; $authors = $plan['authors']; $t = (int) $plan['start'];
$title = $db->sql_fetchfield('topic_title', false, $db->sql_query('SELECT topic_title FROM ' . TOPICS_TABLE . " WHERE topic_id = $tid"));
for ($i = 0; $i < $plan['posts']; $i++) {
    post('reply', $fid, $tid, $authors[$i % count($authors)], 'Re: ' . $title, "Messaggio di riempimento $i", $t + 60 * $i,
         $plan['forum_name']);
}
for ($i = 0; $i < $plan['threads']; $i++) {
    $when = $i < $plan['newer'] ? $t + 86400 + 60 * $i : $t - 30 * 86400 + 60 * $i;  // after or before the game's posts
    post('post', $fid, 0, $authors[$i % count($authors)], "Altra partita $i", "Discussione $i", $when,
         $plan['forum_name']);
}
$cache->purge();
