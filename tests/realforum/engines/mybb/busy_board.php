<?php
// MyBB 1.8: make the game's board busy through MyBB's own datahandlers (as the forms do): more
// threads than one page of the board lists, newer than the game thread, and more replies in it.
//   php busy_board.php DOCROOT PLAN.json
// (the first `newer` threads are newer than the game thread, the rest older: the game thread is on
// the board's first page, and the board's page list on its page has a "Next")
// PLAN: {"forum_id", "thread_id", "threads", "newer", "posts", "authors": [uid...], "start": unix time}
$root = rtrim($argv[1], '/'); chdir($root);
define('IN_MYBB', 1); define('THIS_SCRIPT', 'busy_board.php');
$_SERVER['REQUEST_URI'] = '/busy_board.php'; $_SERVER['REMOTE_ADDR'] = '127.0.0.1'; $_SERVER['HTTP_HOST'] = '127.0.0.1';
require_once $root.'/global.php';
require_once MYBB_ROOT.'inc/datahandlers/post.php';
require_once MYBB_ROOT.'inc/functions_rebuild.php';
$plan = json_decode(file_get_contents($argv[2]), true);
function fail($what) { fwrite(STDERR, print_r($what, true)."\n"); exit(1); }
function make_post($mode, $fid, $tid, $uid, $subject, $message, $dateline) {
    $u = get_user($uid);
    $ph = new PostDataHandler('insert'); $ph->action = $mode; $ph->admin_override = true;
    $ph->set_data(['fid' => $fid, 'tid' => $tid, 'replyto' => 0, 'subject' => $subject, 'prefix' => 0, 'icon' => 0,
        'uid' => $uid, 'username' => $u['username'], 'message' => $message, 'ipaddress' => '127.0.0.1',
        'posthash' => md5($message.$uid.microtime()), 'dateline' => $dateline, 'savedraft' => 0,
        'options' => ['signature' => 0, 'subscriptionmethod' => '', 'disablesmilies' => 0]]);
    $ok = $mode == 'thread' ? $ph->validate_thread() : $ph->validate_post();
    if (!$ok) fail($ph->get_friendly_errors());
    $r = $mode == 'thread' ? $ph->insert_thread() : $ph->insert_post();
    return (int)($r['tid'] ?? $tid);
}
$fid = (int)$plan['forum_id']; $tid = (int)$plan['thread_id']; $authors = $plan['authors']; $t = (int)$plan['start'];
for ($i = 0; $i < $plan['posts']; $i++) {
    make_post('post', $fid, $tid, $authors[$i % count($authors)], '', "Messaggio di riempimento $i", $t + 60 * $i);
}
rebuild_thread_counters($tid);
for ($i = 0; $i < $plan['threads']; $i++) {
    $when = $i < $plan['newer'] ? $t + 86400 + 60 * $i : $t - 30 * 86400 + 60 * $i;  // after or before the game's posts
    $new = make_post('thread', $fid, 0, $authors[$i % count($authors)], "Altra partita $i", "Discussione $i",
                     $when);
    rebuild_thread_counters($new);
}
rebuild_forum_counters($fid);
$cache->update_stats();
